#!/usr/bin/env bash
# Fetches and unpacks the source of a Debian 12 (bookworm) package, Debian's patches applied:
#   deploy/fetch-debian-source.sh PACKAGE DESTDIR
# Uses apt configurations of its own under $CAIRN_BUILD_DIR/deps/apt/SUITE/ (a deb-src
# sources.list, its own lists and cache), so the system's /etc/apt is neither read for sources
# nor changed. The lists are downloaded once, and refreshed when a fetch fails with them. Debian
# 12 (bookworm) first; a package whose bookworm files the archive no longer serves comes from the
# next release (trixie), which is said. An existing DESTDIR is taken as already fetched: nothing
# is done. Needs apt-get and dpkg-source (dpkg-dev); no root.
# Environment: CAIRN_BUILD_DIR (default: build), CAIRN_FETCH_SUITES (default: "bookworm trixie").
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 PACKAGE DESTDIR" >&2
  exit 2
fi
package=$1
dest=$2

if [[ -e $dest ]]; then
  exit 0
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CAIRN_BUILD_DIR:-$root/build}
apt_dir=$build/deps/apt
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

for tool in apt-get dpkg-source; do
  if ! command -v "$tool" >/dev/null; then
    echo "fetch-debian-source: $tool is missing (install apt and dpkg-dev)" >&2
    exit 1
  fi
done
if [[ ! -f $keyring ]]; then
  echo "fetch-debian-source: $keyring is missing (install debian-archive-keyring)" >&2
  exit 1
fi

# Debian 12 first; where the archive no longer serves that version's files (a 404 for a package
# replaced since), the nearest version it serves, from the next release: said on stderr.
suites=(${CAIRN_FETCH_SUITES:-bookworm trixie})

# Download and unpack (dpkg-source applies Debian's patches) in a temporary directory beside
# DESTDIR, then move the unpacked tree into place: an interrupted fetch leaves no DESTDIR behind.
mkdir -p "$(dirname "$dest")"
tmp=$(mktemp -d "$(dirname "$dest")/.fetch-$package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# One apt configuration per suite: its sources.list, lists and cache.
fetch_from() {
  local suite=$1 dir=$apt_dir/$suite
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian $suite main" >"$dir/sources.list"
  local opts=(
    -o "Dir::Etc::SourceList=$dir/sources.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$dir/lists"
    -o "Dir::Cache=$dir/cache"
  )
  update() {
    echo "fetch-debian-source: downloading the list of Debian's source packages ($suite)"
    apt-get "${opts[@]}" -qq update || {
      echo "fetch-debian-source: apt-get update failed (is deb.debian.org reachable?)" >&2
      return 1
    }
  }
  fetch() {
    find "$tmp" -mindepth 1 -delete
    (cd "$tmp" && apt-get "${opts[@]}" -qq source "$package" >source.log 2>&1)
  }
  # The lists are downloaded once (a Sources file means an earlier update succeeded), and again
  # when the fetch fails with them: a point release may have replaced the version they name.
  local updated=0
  if ! compgen -G "$dir/lists/*Sources*" >/dev/null; then
    update || return 1
    updated=1
  fi
  fetch && return 0
  ((updated)) && return 1
  update && fetch
}

echo "fetch-debian-source: fetching the source of $package"
fetched=
for suite in "${suites[@]}"; do
  if fetch_from "$suite"; then
    fetched=$suite
    break
  fi
  echo "fetch-debian-source: $package is not to be had from $suite:" \
       "$(grep -m1 '^E:' "$tmp/source.log" 2>/dev/null || echo 'no such source package')" >&2
done
if [[ -z $fetched ]]; then
  echo "fetch-debian-source: apt-get source $package failed in ${suites[*]}" >&2
  exit 1
fi
trees=()
for d in "$tmp"/*/; do trees+=("${d%/}"); done
if [[ ${#trees[@]} -ne 1 ]]; then
  echo "fetch-debian-source: expected one unpacked source tree of $package in $tmp, found" \
       "${#trees[@]}" >&2
  exit 1
fi
mv "${trees[0]}" "$dest"
if [[ $fetched != "${suites[0]}" ]]; then
  echo "fetch-debian-source: $package: ${suites[0]} no longer serves its files; took" \
       "$(basename "${trees[0]}") from $fetched, the nearest version served" >&2
fi
echo "fetch-debian-source: $package is in $dest ($(basename "${trees[0]}"), $fetched)"
