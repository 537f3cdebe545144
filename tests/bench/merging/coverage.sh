#!/usr/bin/env bash
# Line coverage under a time limit: coreutils utilities (built by tests/real/build-subjects.sh)
# under the default searcher with no merging, static merging (ssm) and dynamic merging (dsm).
# The three runs of a utility go side by side, at once, so that they share the machine's load
# alike; each row is a run's coverage when its --max-time ran out (or it ended).
#
#   tests/bench/merging/coverage.sh CAIRN_BINARY [--time SECONDS] [--inputs 'FLAGS'] [--out DIR]
#                                   [UTILITY...]
#
#   --time SECONDS  each run's --max-time (default 600)
#   --inputs FLAGS  the symbolic inputs (default '--sym-args 0 2 4 --sym-stdin 8')
#   --out DIR       output directories and table.txt (default /dev/shm/cairn-bench-merging-coverage)
#   UTILITY         default: echo basename cat
# Environment: CAIRN_BUILD_DIR (default: build), where build/real/coreutils is.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
usage() { sed -n '7,8p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
(($#)) || usage
cairn=$1
shift
time_limit=600
inputs='--sym-args 0 2 4 --sym-stdin 8'
out=/dev/shm/cairn-bench-merging-coverage
utilities=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?}; shift 2 ;;
    --inputs) inputs=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "coverage.sh: unknown option '$1'" >&2; usage ;;
    *) utilities+=("$1"); shift ;;
  esac
done
[[ -x $cairn ]] || { echo "coverage.sh: $cairn is not an executable cairn" >&2; exit 2; }
((${#utilities[@]})) || utilities=(echo basename cat)
bin=${CAIRN_BUILD_DIR:-$root/build}/real/coreutils/src
for u in "${utilities[@]}"; do
  [[ -x $bin/$u ]] || CAIRN_COREUTILS="${utilities[*]}" "$root/tests/real/build-subjects.sh" coreutils
done
read -r -a input_flags <<<"$inputs"
modes=(none ssm dsm)

mkdir -p "$out"
table=$out/table.txt
printf '%-10s %-5s %8s %9s %9s %8s %9s %8s\n' utility mode wall lines "of" paths "solver q" merges | tee "$table"
for u in "${utilities[@]}"; do
  for mode in "${modes[@]}"; do
    rm -rf "$out/$u-$mode"
    "$cairn" run --quiet --max-time "$time_limit" --merge-strategy "$mode" --output-dir "$out/$u-$mode" \
      "$bin/$u" "${input_flags[@]}" 2>>"$out/stderr.log" &
  done
  wait
  for mode in "${modes[@]}"; do
    summary=$out/$u-$mode/summary.json
    if [[ ! -f $summary ]]; then
      printf '%-10s %-5s %8s\n' "$u" "$mode" failed | tee -a "$table"
      continue
    fi
    python3 - "$summary" "$u" "$mode" <<'PY' | tee -a "$table"
import json, sys
d = json.load(open(sys.argv[1])); c = d["coverage"]
print("%-10s %-5s %8.1f %9d %9d %8d %9d %8d" % (sys.argv[2], sys.argv[3], d["wall_time_s"], c["lines_covered"],
      c["lines_total"], d["paths_completed"] + d["paths_partial"], d["solver_queries"], d["merging"]["merges"]))
PY
  done
done
