#!/usr/bin/env bash
# The merging strategies on real programs: coreutils utilities (built by
# tests/real/build-subjects.sh) with small symbolic inputs, each run to its end (or --time)
# under no merging, static merging (ssm) and dynamic merging (dsm), side by side. Prints one
# row per run and, per utility, the ratios of the wall times (the exploration's; `qce` is the
# analysis before it, which the merging runs add). With --coverage, the runs are
# the paper's partial ones: the default searcher, the three runs of a utility at once (so that
# they share the machine's load alike), and each row the lines of the utility's own source
# covered when its --max-time ran out.
#
#   tests/bench/merging/coreutils.sh CAIRN_BINARY [--time SECONDS] [--inputs 'FLAGS'] [--out DIR]
#                                    [--search S] [--seeds N] [--coverage] [UTILITY...]
#
#   --time SECONDS  each run's --max-time (default 300; 600 with --coverage); a run that hits it
#                   shows "limit"
#   --inputs FLAGS  the symbolic inputs (default '--sym-args 0 1 2 --sym-stdin 2'; with
#                   --coverage '--sym-args 0 2 4 --sym-stdin 8')
#   --search S      the driving searcher (default random-state, the paper's for exhaustive runs;
#                   with --coverage the default searcher)
#   --seeds N       runs to completion: each configuration with seeds 1..N (default 3); the row
#                   is the run of the median wall time (the driving searcher is random: one
#                   seed's time can be ten times another's)
#   --out DIR       output directories and table.txt (default /dev/shm/cairn-bench-merging-coreutils)
#   UTILITY         default: echo basename dirname cat wc head tail cut tr fold uniq nl tac sum
# Environment: CAIRN_BUILD_DIR (default: build), where build/real/coreutils is.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
usage() { sed -n '10,11p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
(($#)) || usage
cairn=$1
shift
time_limit=
inputs=
search=
coverage=
seeds=3
out=/dev/shm/cairn-bench-merging-coreutils
utilities=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?}; shift 2 ;;
    --inputs) inputs=${2:?}; shift 2 ;;
    --search) search=${2:?}; shift 2 ;;
    --coverage) coverage=1; shift ;;
    --seeds) seeds=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "coreutils.sh: unknown option '$1'" >&2; usage ;;
    *) utilities+=("$1"); shift ;;
  esac
done
[[ -x $cairn ]] || { echo "coreutils.sh: $cairn is not an executable cairn" >&2; exit 2; }
[[ $seeds =~ ^[1-9][0-9]*$ ]] || { echo "coreutils.sh: --seeds needs a number of runs, got '$seeds'" >&2; exit 2; }
((${#utilities[@]})) || utilities=(echo basename dirname cat wc head tail cut tr fold uniq nl tac sum)
bin=${CAIRN_BUILD_DIR:-$root/build}/real/coreutils/src
for u in "${utilities[@]}"; do
  [[ -x $bin/$u ]] || CAIRN_COREUTILS="${utilities[*]}" "$root/tests/real/build-subjects.sh" coreutils
done
modes=(none ssm dsm)
mkdir -p "$out"
table=$out/table.txt

if [[ $coverage ]]; then
  [[ $inputs ]] || inputs='--sym-args 0 2 4 --sym-stdin 8'
  read -r -a input_flags <<<"$inputs"
  search_flags=()
  [[ -z $search ]] || search_flags=(--search "$search")
  printf '%-10s %-5s %8s %9s %9s %8s %9s %8s\n' utility mode wall lines "of" paths "solver q" merges | tee "$table"
  for u in "${utilities[@]}"; do
    for mode in "${modes[@]}"; do
      rm -rf "$out/$u-$mode"
      "$cairn" run --quiet "${search_flags[@]}" --max-time "${time_limit:-600}" --merge-strategy "$mode" \
        --output-dir "$out/$u-$mode" "$bin/$u" "${input_flags[@]}" 2>>"$out/stderr.log" &
    done
    wait
    for mode in "${modes[@]}"; do
      python3 - "$out/$u-$mode/summary.json" "$u" "$mode" <<'PY' | tee -a "$table"
import json, os, sys
path, utility, mode = sys.argv[1:]
if not os.path.exists(path):
    print("%-10s %-5s %8s" % (utility, mode, "failed")); sys.exit()
d = json.load(open(path))
own = [f for f in d["coverage"]["files"] if f["file"].endswith("/src/%s.c" % utility)]
covered, total = (own[0]["lines_covered"], own[0]["lines_total"]) if own else (0, 0)
print("%-10s %-5s %8.1f %9d %9d %8d %9d %8d" % (utility, mode, d["wall_time_s"], covered, total,
      d["paths_completed"] + d["paths_partial"], d["solver_queries"], d["merging"]["merges"]))
PY
    done
  done
  exit 0
fi

time_limit=${time_limit:-300}
search=${search:-random-state}
[[ $inputs ]] || inputs='--sym-args 0 1 2 --sym-stdin 2'
read -r -a input_flags <<<"$inputs"
printf '%-10s %-5s %6s %9s %6s %8s %13s %9s %9s %8s %9s %-9s %s\n' utility mode status wall qce paths multiplicity queries "solver q" merges "refused" "ff/merged" "walls" | tee "$table"
for u in "${utilities[@]}"; do
  declare -A wall=()
  for mode in "${modes[@]}"; do
    # One run per seed; the row is the run of the median wall time, `walls` all of them.
    summaries=()
    for ((seed = 1; seed <= seeds; ++seed)); do
      dir=$out/$u-$mode-$seed
      rm -rf "$dir"
      "$cairn" run --quiet --seed "$seed" --search "$search" --max-time "$time_limit" --merge-strategy "$mode" \
        --output-dir "$dir" "$bin/$u" "${input_flags[@]}" 2>>"$out/stderr.log" || true
      summaries+=("$dir/summary.json")
    done
    row=$(python3 - "$time_limit" "${summaries[@]}" <<'PY'
import json, os, sys
limit, paths = float(sys.argv[1]), sys.argv[2:]
runs = [json.load(open(p)) for p in paths if os.path.exists(p)]
if len(runs) < len(paths):
    print("failed"); sys.exit()
runs.sort(key=lambda d: d["wall_time_s"])
d = runs[len(runs) // 2]; m = d["merging"]
status = "limit" if d["wall_time_s"] >= limit else "done"
print(status, "%.2f" % d["wall_time_s"], "%.2f" % m["qce_time_s"], d["paths_completed"] + d["paths_partial"], m["multiplicity"],
      d["queries"], d["solver_queries"], m["merges"], m["refused"],
      "%d/%d" % (m["fast_forwarded"], m["fast_forwarded_merged"]), "/".join("%.2f" % r["wall_time_s"] for r in runs))
PY
)
    if [[ $row == failed ]]; then
      printf '%-10s %-5s %6s\n' "$u" "$mode" failed | tee -a "$table"
      continue
    fi
    read -r status w qce paths mult queries sq merges refused ff walls <<<"$row"
    wall[$mode]=$w
    printf '%-10s %-5s %6s %9s %6s %8s %13s %9s %9s %8s %9s %-9s %s\n' "$u" "$mode" "$status" "$w" "$qce" "$paths" "$mult" "$queries" "$sq" "$merges" "$refused" "$ff" "$walls" | tee -a "$table"
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
