#!/usr/bin/env bash
# Builds the real-software suite's subjects from Debian's source packages with `cairn cc`:
#   tests/real/build-subjects.sh [SUBJECT...]     (default: the suite's)
# Subjects: coreutils json-c libyaml libosip2 libtasn1 (the suite's) and apr (a driver of
# tests/bench/quantified). Each is fetched once into
# $CAIRN_BUILD_DIR/deps/src/PACKAGE (deploy/fetch-debian-source.sh: Debian's own archive, through
# the build directory's apt configuration) and built once into $CAIRN_BUILD_DIR/real/SUBJECT;
# a subject already built is skipped (delete its directory to build it again).
# Environment: CAIRN_BUILD_DIR (default: build), CAIRN_JOBS (default: number of cores),
# CAIRN_COREUTILS (the utilities to build; default: the suite's).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${CAIRN_BUILD_DIR:-$root/build}" && pwd)
jobs=${CAIRN_JOBS:-$(nproc)}
cairn=$build/client/cairn
export CAIRN_BUILD_DIR=$build
[[ -x $cairn ]] || { echo "build-subjects: $cairn is missing: build Cairn first" >&2; exit 1; }

# The utilities of the suite (README: Real-software suite).
coreutils_programs=${CAIRN_COREUTILS:-"echo basename dirname cat wc head tail cut tr seq printf expr od paste fold uniq nl sort join tac comm expand unexpand tsort sum cksum base64 tee"}

fetch() { "$root/deploy/fetch-debian-source.sh" "$1" "$build/deps/src/$1"; }

# A fresh copy of the source to build in (configure writes into its tree), where it stays: the
# objects record their bitcode by absolute path. A build that did not finish is started over.
fresh_tree() {
  local package=$1 dest=$2
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  cp -a "$build/deps/src/$package" "$dest"
}

done_marker() { [[ -f $1/.cairn-built ]]; }

build_coreutils() {
  local dir=$build/real/coreutils
  if done_marker "$dir"; then # built before: only the utilities asked for that are not there yet
    local missing=()
    for p in $coreutils_programs; do [[ -x $dir/src/$p ]] || missing+=("src/$p"); done
    ((${#missing[@]} == 0)) || (cd "$dir" && make -j"$jobs" "${missing[@]}" >>make.log 2>&1) ||
      { tail -30 "$dir/make.log" >&2; exit 1; }
    return 0
  fi
  fetch coreutils
  fresh_tree coreutils "$dir"
  (
    cd "$dir"
    # No optional libraries (SELinux, ACLs, capabilities, GMP, OpenSSL): the analysed programs
    # link musl alone. FORCE_UNSAFE_CONFIGURE: the build may run as root.
    FORCE_UNSAFE_CONFIGURE=1 ./configure -q CC="$cairn cc" CFLAGS="-g -O1" \
      --disable-nls --without-selinux --disable-acl --disable-xattr --disable-libcap \
      --disable-libsmack --without-gmp --without-openssl --disable-rpath >configure.log 2>&1 ||
      { tail -30 configure.log >&2; exit 1; }
    # The generated headers first (what `make all` builds before anything), then only the
    # utilities asked for.
    local built
    built=$(printf 'cairn-built-sources:\n\t@echo $(BUILT_SOURCES)\n' | make -s -f Makefile -f - cairn-built-sources)
    # shellcheck disable=SC2086
    make -j"$jobs" $built >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
    local targets=()
    for p in $coreutils_programs; do targets+=("src/$p"); done
    make -j"$jobs" "${targets[@]}" >>make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
  )
  touch "$dir/.cairn-built"
}

# A library built with CMake or autotools, static, into $build/real/SUBJECT/install; the
# arguments after the third go to configure.
build_library() {
  local subject=$1 package=$2 kind=$3
  shift 3
  local dir=$build/real/$subject
  done_marker "$dir" && return 0
  fetch "$package"
  fresh_tree "$package" "$dir"
  (
    cd "$dir"
    if [[ $kind == cmake ]]; then
      cmake -S . -B out -G Ninja -DCMAKE_C_COMPILER="$cairn-cc" \
        -DCMAKE_C_FLAGS="-g -O1" -DBUILD_SHARED_LIBS=OFF -DCMAKE_INSTALL_PREFIX="$PWD/install" \
        -DBUILD_TESTING=OFF -DDISABLE_WERROR=ON -DBUILD_APPS=OFF >configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
      cmake --build out -j "$jobs" >make.log 2>&1 && cmake --install out >>make.log 2>&1 ||
        { tail -30 make.log >&2; exit 1; }
    else
      [[ -x configure ]] || autoreconf -fi >configure.log 2>&1
      ./configure -q CC="$cairn cc" CFLAGS="-g -O1" --disable-shared --enable-static \
        --prefix="$PWD/install" "$@" >>configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
      make -j"$jobs" >make.log 2>&1 && make install >>make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
    fi
  )
  touch "$dir/.cairn-built"
}

subjects=("$@")
((${#subjects[@]})) || subjects=(coreutils json-c libyaml libosip2 libtasn1)
for s in "${subjects[@]}"; do
  start=$SECONDS
  case $s in
    coreutils) build_coreutils ;;
    json-c) build_library json-c json-c cmake ;;
    libyaml) build_library libyaml libyaml cmake ;;
    # Without thread support: the drivers are single-threaded, and 5.3.1 (what Debian serves
    # once bookworm's 5.3.0 is gone) refuses to configure where its pthreads check fails.
    libosip2) build_library libosip2 libosip2 autotools --enable-mt=no ;;
    libtasn1) build_library libtasn1 libtasn1-6 autotools ;;
    apr) build_library apr apr autotools ;;
    *) echo "build-subjects: unknown subject '$s'" >&2; exit 2 ;;
  esac
  echo "build-subjects: $s built in $build/real/$s ($((SECONDS - start)) s)"
done
