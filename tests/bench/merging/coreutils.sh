#!/usr/bin/env bash
# The merging strategies on real programs: coreutils utilities (built by
# tests/real/build-subjects.sh) with small symbolic inputs, each run to its end (or --time)
# under no merging, static merging (ssm) and dynamic merging (dsm), side by side. Prints one
# row per run and, per utility, the ratios of the wall times.
#
#   tests/bench/merging/coreutils.sh CAIRN_BINARY [--time SECONDS] [--inputs 'FLAGS'] [--out DIR]
#                                    [--search S] [UTILITY...]
#
#   --time SECONDS  each run's --max-time (default 300); a run that hits it shows "limit"
#   --inputs FLAGS  the symbolic inputs (default '--sym-args 0 1 2 --sym-stdin 2')
#   --search S      the driving searcher (default random-state, the paper's for exhaustive runs)
#   --out DIR       output directories and table.txt (default /dev/shm/cairn-bench-merging-coreutils)
#   UTILITY         default: echo basename dirname cat wc head tail cut tr fold uniq nl tac sum
# Environment: CAIRN_BUILD_DIR (default: build), where build/real/coreutils is.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
usage() { sed -n '7,8p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
(($#)) || usage
cairn=$1
shift
time_limit=300
inputs='--sym-args 0 1 2 --sym-stdin 2'
search=random-state
out=/dev/shm/cairn-bench-merging-coreutils
utilities=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?}; shift 2 ;;
    --inputs) inputs=${2:?}; shift 2 ;;
    --search) search=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "coreutils.sh: unknown option '$1'" >&2; usage ;;
    *) utilities+=("$1"); shift ;;
  esac
done
[[ -x $cairn ]] || { echo "coreutils.sh: $cairn is not an executable cairn" >&2; exit 2; }
((${#utilities[@]})) || utilities=(echo basename dirname cat wc head tail cut tr fold uniq nl tac sum)
bin=${CAIRN_BUILD_DIR:-$root/build}/real/coreutils/src
[[ -x $bin/echo ]] || "$root/tests/real/build-subjects.sh" coreutils
read -r -a input_flags <<<"$inputs"

mkdir -p "$out"
table=$out/table.txt
printf '%-10s %-5s %6s %9s %8s %13s %9s %9s %8s %9s %s\n' utility mode status wall paths multiplicity queries "solver q" merges "refused" "ff/merged" | tee "$table"
for u in "${utilities[@]}"; do
  declare -A wall=()
  for mode in none ssm dsm; do
    dir=$out/$u-$mode
    rm -rf "$dir"
    "$cairn" run --quiet --search "$search" --max-time "$time_limit" --merge-strategy "$mode" \
      --output-dir "$dir" "$bin/$u" "${input_flags[@]}" 2>>"$out/stderr.log" || true
    if [[ ! -f $dir/summary.json ]]; then
      printf '%-10s %-5s %6s\n' "$u" "$mode" failed | tee -a "$table"
      continue
    fi
    row=$(python3 - "$dir/summary.json" "$time_limit" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["merging"]
status = "limit" if d["wall_time_s"] >= float(sys.argv[2]) else "done"
print(status, "%.2f" % d["wall_time_s"], d["paths_completed"] + d["paths_partial"], m["multiplicity"],
      d["queries"], d["solver_queries"], m["merges"], m["refused"],
      "%d/%d" % (m["fast_forwarded"], m["fast_forwarded_merged"]))
PY
)
    read -r status w paths mult queries sq merges refused ff <<<"$row"
    wall[$mode]=$w
    printf '%-10s %-5s %6s %9s %8s %13s %9s %9s %8s %9s %s\n' "$u" "$mode" "$status" "$w" "$paths" "$mult" "$queries" "$sq" "$merges" "$refused" "$ff" | tee -a "$table"
  done
  python3 - "$u" "${wall[none]:-}" "${wall[ssm]:-}" "${wall[dsm]:-}" <<'PY' | tee -a "$table"
import sys
utility, none, *others = sys.argv[1:]
line = f"  {utility}, wall time over none's:"
for mode, w in zip(("ssm", "dsm"), others):
    line += f" {mode} {float(w) / float(none):.3g}x" if none and w and float(none) > 0 else f" {mode} -"
print(line)
PY
  unset wall
done
