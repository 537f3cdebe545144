#!/usr/bin/env bash
# Installs Cairn's dependencies from Debian 12 packages (only what is missing), fetches the source
# of musl (built to bitcode by runtime/musl/, into $CAIRN_BUILD_DIR/deps/src/musl, once:
# see deploy/fetch-debian-source.sh), configures and builds with CMake + Ninja, then runs one of:
#   deploy/bootstrap.sh example   the bundled example (default)
#   deploy/bootstrap.sh test      the whole test suite through ctest
#   deploy/bootstrap.sh build     nothing more
#   deploy/bootstrap.sh deps      only installs the packages and fetches musl's source (no
#                                 configure, no build)
# Environment: CAIRN_BUILD_DIR (default: build), CAIRN_JOBS (default: number of cores).
set -euo pipefail

action=${1:-example}
case "$action" in
  example|test|build|deps) ;;
  *) echo "usage: $0 [example|test|build|deps]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CAIRN_BUILD_DIR:-$root/build}
jobs=${CAIRN_JOBS:-$(nproc)}

packages=(
  cmake ninja-build g++ pkg-config
  llvm-15-dev clang-15
  libz3-dev libcvc5-dev z3
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libspdlog-dev libgtest-dev libgmock-dev libsqlite3-dev libglpk-dev coinor-libcbc-dev libabsl-dev
  musl-dev dpkg-dev python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "bootstrap: installing packages needs root (run as root, or install: ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# musl's source (Debian's package, its patches applied), which runtime/musl/ builds to bitcode;
# fetched with an apt configuration of the build directory's own, only when it is missing.
if [[ ! -d $build/deps/src/musl ]]; then
  echo "bootstrap: fetching the source of musl"
  CAIRN_BUILD_DIR=$build "$root/deploy/fetch-debian-source.sh" musl "$build/deps/src/musl"
fi

[[ $action == deps ]] && exit 0

# For the test suite, a browser to load the dashboard in (the test is skipped without one); not
# being able to install it is no reason to stop.
if [[ $action == test ]] && ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  if [[ $(id -u) -eq 0 ]]; then
    echo "bootstrap: installing chromium (for the dashboard's browser test)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 ||
      { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; } ||
      echo "bootstrap: chromium could not be installed: the dashboard's browser test will be skipped" >&2
  else
    echo "bootstrap: chromium is not installed (needs root): the dashboard's browser test will be skipped" >&2
  fi
fi

# For the test suite's checks of the CI reports: a JSON schema validator, xmllint and genhtml from
# Debian, and the SARIF 2.1.0 schema from npm (deploy/fetch-sarif-schema.sh); and a WebSocket
# client for driving Chromium with the keyboard (the dashboard's keyboard test). Without them
# those checks are skipped, with the reason.
if [[ $action == test ]]; then
  report_tools=()
  for p in python3-jsonschema libxml2-utils lcov python3-websocket; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || report_tools+=("$p")
  done
  if ((${#report_tools[@]})) && [[ $(id -u) -eq 0 ]]; then
    echo "bootstrap: installing ${report_tools[*]} (for the report format checks)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends "${report_tools[@]}" >/dev/null 2>&1 ||
      { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${report_tools[@]}" >/dev/null 2>&1; } ||
      echo "bootstrap: ${report_tools[*]} could not be installed: the report format checks will be skipped" >&2
  fi
  if [[ ! -f $build/deps/sarif/sarif-2.1.0-rtm.5.json ]]; then
    echo "bootstrap: fetching the SARIF 2.1.0 schema"
    "$root/deploy/fetch-sarif-schema.sh" "$build/deps/sarif/sarif-2.1.0-rtm.5.json" ||
      echo "bootstrap: the SARIF schema could not be fetched: its check will be skipped" >&2
  fi
fi

# Configured again where an earlier configuration found no musl source (it builds no libc then).
if [[ ! -f $build/build.ninja ]] || ! grep -q '^CAIRN_LIBC_BC:INTERNAL=.' "$build/CMakeCache.txt"; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$jobs"

case "$action" in
  example)
    out="$build/example-out"
    rm -rf "$out"
    "$build/client/cairn" run --search dfs --output-dir "$out" "$root/examples/sign.c"
    for t in "$out"/*.ktest; do "$build/client/cairn" ktest "$t"; done
    ;;
  test) ctest --test-dir "$build" --output-on-failure -j "$jobs" ;;
  build) ;;
esac
