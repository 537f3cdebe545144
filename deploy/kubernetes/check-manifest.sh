#!/usr/bin/env bash
# Checks a Kubernetes manifest (default: deploy/kubernetes/cairn.yaml) against the API's types
# without a cluster: each document is declared as its kind's type from the npm package
# kubernetes-types (the API of Kubernetes 1.30), and TypeScript's compiler reports every field the
# kind does not have (a misspelt key, a field at the wrong level) and every value of the wrong
# type. `kubectl apply --dry-run=client` cannot do this offline: it asks a server for the API.
# Needs node and npm (Debian's nodejs and npm packages; as root the script installs them) and
# the npm registry. Exits 1 on any finding.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
manifest=$(realpath "${1:-$root/deploy/kubernetes/cairn.yaml}")
fail() { echo "check-manifest: $*" >&2; exit 1; }

if ! command -v npm >/dev/null; then
  [[ $(id -u) -eq 0 ]] || fail "npm is missing (install Debian's nodejs and npm packages)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null 2>&1 ||
    fail "installing nodejs and npm failed"
fi

work=$(mktemp -d -t cairn-check-manifest.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo '{"private": true}' >package.json
npm install --no-audit --no-fund --silent kubernetes-types@1.30.0 typescript@5.9.3 yaml@2.9.1 ||
  fail "npm install of kubernetes-types, typescript and yaml failed"

# One declaration per document: `const docN: Kind = {...}` (a literal, so excess fields are errors).
cat >declare.mjs <<'EOF'
import { readFileSync, writeFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
let out = "", n = 0;
for (const doc of parseAllDocuments(readFileSync(process.argv[2], "utf8"))) {
  if (doc.errors.length) throw new Error(doc.errors.map(String).join("\n"));
  const obj = doc.toJS();
  if (!obj) continue;
  if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string")
    throw new Error(`document ${n + 1} has no apiVersion or kind`);
  const [group, version] = obj.apiVersion.includes("/") ? obj.apiVersion.split("/") : ["core", obj.apiVersion];
  const name = obj.metadata?.name ?? "";
  out += `// ${obj.kind} ${name}\n`;
  out += `import type { ${obj.kind} as Kind${n} } from "kubernetes-types/${group.split(".")[0]}/${version}";\n`;
  out += `export const doc${n}: Kind${n} = ${JSON.stringify(obj, null, 2)};\n`;
  console.log(`${obj.apiVersion} ${obj.kind} ${name}`);
  n++;
}
writeFileSync("manifest.ts", out);
EOF
node declare.mjs "$manifest" || fail "$manifest is not readable YAML with apiVersion and kind in each document"
if ! npx --no-install tsc --noEmit --strict --moduleResolution node manifest.ts >tsc.out; then
  # Each finding under the document it is in (the `// Kind name` line above it in manifest.ts).
  awk -F'[(,]' 'NR == FNR { if ($0 ~ /^\/\/ /) doc[FNR] = substr($0, 4); next }
                /^manifest\.ts\(/ { for (l = $2; l > 0 && !(l in doc); l--); sub(/^[^:]*: /, ""); print doc[l] ": " $0; next }
                { print }' manifest.ts tsc.out >&2
  fail "$manifest does not match the Kubernetes API's types"
fi
echo "check-manifest: $manifest matches the Kubernetes 1.30 API's types"
