#!/usr/bin/env bash
# Runs `cairn run` on a coreutils utility (built by build-subjects.sh) RUNS times with the same
# options and seed, and fails unless every run's summary is the same but for its times: a run
# must not follow where the host put things (dynamic merging under random-state once did).
#
#   tests/real/same-run.sh CAIRN RUNS UTILITY [cairn run options and symbolic inputs...]
# Environment: CAIRN_BUILD_DIR (default: build), where real/coreutils is.
set -euo pipefail
(($# >= 3)) || { sed -n '6p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cairn=$1 runs=$2 utility=$3
shift 3
program=${CAIRN_BUILD_DIR:-$root/build}/real/coreutils/src/$utility
[[ -x $program ]] || { echo "same-run: $program is not built (tests/real/build-subjects.sh)" >&2; exit 1; }
out=$(mktemp -d /dev/shm/cairn-same-run.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((i = 1; i <= runs; ++i)); do
  "$cairn" run --quiet --output-dir "$out/$i" "$program" "$@"
done
python3 - "$out" "$runs" <<'PY'
import json, sys
out, runs = sys.argv[1], int(sys.argv[2])
def timeless(v):
    if isinstance(v, dict):
        return {k: timeless(x) for k, x in v.items() if not (k.endswith("_s") or k.endswith("_ms"))}
    if isinstance(v, list):
        return [timeless(x) for x in v]
    return v
summaries = [timeless(json.load(open(f"{out}/{i}/summary.json"))) for i in range(1, runs + 1)]
differ = [i + 1 for i, s in enumerate(summaries) if s != summaries[0]]
brief = lambda s: f"{s['paths_completed']} paths, {s['solver_queries']} solver queries, {s['instructions']} instructions"
if differ:
    print(f"same-run: runs {differ} differ from run 1 ({brief(summaries[0])}); e.g. run {differ[0]}: {brief(summaries[differ[0] - 1])}")
    sys.exit(1)
print(f"same-run: {runs} runs alike ({brief(summaries[0])})")
PY
