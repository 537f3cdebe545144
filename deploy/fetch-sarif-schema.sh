#!/usr/bin/env bash
# The SARIF 2.1.0 JSON schema, for the test suite's check of `cairn run --sarif`: the copy the
# @microsoft/jest-sarif package on npm carries, its tarball checked against the SHA-1 npm
# publishes for it. Nothing of it is committed; it goes to the build directory.
#   deploy/fetch-sarif-schema.sh DEST.json
set -euo pipefail
dest=${1:?usage: $0 DEST.json}
url=https://registry.npmjs.org/@microsoft/jest-sarif/-/jest-sarif-1.0.0-beta.0.tgz
sha1=bf817c5931635bd90274c4eb20aad7db1ac17601
member=package/lib/schemas/sarif-2.1.0-rtm.5.json

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$url" "$tmp/package.tgz" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r, open(sys.argv[2], "wb") as out:
    out.write(r.read())
PY
echo "$sha1  $tmp/package.tgz" | sha1sum --check --quiet
mkdir -p "$(dirname "$dest")"
tar -xzf "$tmp/package.tgz" -C "$tmp" "$member"
mv "$tmp/$member" "$dest"
