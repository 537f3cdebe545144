#!/usr/bin/env bash
# Fetches and unpacks the source of a Debian 12 (bookworm) package, Debian's patches applied:
#   deploy/fetch-debian-source.sh PACKAGE DESTDIR
# Uses an apt configuration of its own under $CAIRN_BUILD_DIR/deps/apt/ (a deb-src sources.list,
# its own lists and cache), so the system's /etc/apt is neither read for sources nor changed. The
# lists are downloaded once, and refreshed when a fetch fails with them. An existing DESTDIR is
# taken as already fetched: nothing is done. Needs apt-get and dpkg-source (dpkg-dev); no root.
# Environment: CAIRN_BUILD_DIR (default: build).
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

mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm main" \
  >"$apt_dir/sources.list"
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::Cache=$apt_dir/cache"
)

update_lists() {
  echo "fetch-debian-source: downloading the list of Debian's source packages"
  if ! apt-get "${apt_opts[@]}" -qq update; then
    echo "fetch-debian-source: apt-get update failed (is deb.debian.org reachable?)" >&2
    exit 1
  fi
}

# Download and unpack (dpkg-source applies Debian's patches) in a temporary directory beside
# DESTDIR, then move the unpacked tree into place: an interrupted fetch leaves no DESTDIR behind.
mkdir -p "$(dirname "$dest")"
tmp=$(mktemp -d "$(dirname "$dest")/.fetch-$package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fetch() {
  find "$tmp" -mindepth 1 -delete
  (cd "$tmp" && apt-get "${apt_opts[@]}" -qq source "$package" >source.log 2>&1)
}

# The lists of sources are downloaded once (a Sources file in lists/ means an earlier update
# succeeded), and again when the fetch fails with them: a point release may have replaced the
# version they name.
updated=0
if ! compgen -G "$apt_dir/lists/*Sources*" >/dev/null; then
  update_lists
  updated=1
fi
echo "fetch-debian-source: fetching the source of $package"
if ! fetch && { ((updated)) || { update_lists && ! fetch; }; }; then
  cat "$tmp/source.log" >&2
  echo "fetch-debian-source: apt-get source $package failed (no such source package in" \
       "bookworm, or the download failed)" >&2
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
echo "fetch-debian-source: $package is in $dest ($(basename "${trees[0]}"))"
