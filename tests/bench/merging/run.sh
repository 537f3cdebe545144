#!/usr/bin/env bash
# The merging benchmark: each program of this directory at growing input sizes, under no
# merging, static merging (ssm) and dynamic merging (dsm), side by side, each run to the end or
# to --time. Prints one table row per run and, per program, the ratios at its largest size.
#
#   tests/bench/merging/run.sh CAIRN_BINARY [--time SECONDS] [--repeat R] [--search S]
#                              [--out DIR] [--config 'NAME=OPTIONS']... [PROGRAM...]
#
#   --time SECONDS   each run's --max-time (default 120); a run that hits it shows "limit", and
#                    its configuration is not run at the program's larger sizes (shown as
#                    "limit" with the time limit as its wall time and "-" for the rest)
#   --repeat R       run each configuration R times at each size and keep the fastest
#                    (default 1; a run that hits the limit is not repeated): runs of a few
#                    milliseconds swing by half between identical runs on a shared machine
#   --search S       the searcher of every run (default random-state: the paper's driving
#                    heuristic for exhaustive runs; ssm ignores it)
#   --config SPEC    a configuration, 'NAME=OPTIONS' (repeatable; the first is the baseline of
#                    the ratios). Default: none='--merge-strategy none', ssm='--merge-strategy
#                    ssm', dsm='--merge-strategy dsm', dsm-hold='--merge-strategy dsm
#                    --dsm-hold-exits'
#   --out DIR        the runs' output directories and table.txt (default /dev/shm/cairn-bench-merging)
#   PROGRAM          a file name of this directory (default: all of them)
#
# Sizes: each program's size macro takes the values of SIZES below.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { sed -n '6,7p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
(($#)) || usage
cairn=$1
shift
time_limit=120
repeat=1
search=random-state
out=/dev/shm/cairn-bench-merging
configs=()
programs=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?}; shift 2 ;;
    --repeat) repeat=${2:?}; shift 2 ;;
    --search) search=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --config) configs+=("${2:?}"); shift 2 ;;
    -h | --help) usage ;;
    -*) echo "run.sh: unknown option '$1'" >&2; usage ;;
    *) programs+=("$1"); shift ;;
  esac
done
[[ -x $cairn ]] || { echo "run.sh: $cairn is not an executable cairn" >&2; exit 2; }
((${#configs[@]})) || configs=("none=--merge-strategy none" "ssm=--merge-strategy ssm" "dsm=--merge-strategy dsm"
                               "dsm-hold=--merge-strategy dsm --dsm-hold-exits")
((${#programs[@]})) || programs=(sleep-sum.c checksum.c echo-args.c state-machine.c mode-parse.c)

# Per program: the macro and the sizes it takes (small to large).
declare -A SIZES=(
  [sleep-sum.c]="N 2 3 4 5"
  [checksum.c]="N 8 10 12 14"
  [echo-args.c]="N 2 3 4"
  [state-machine.c]="N 6 7 8 9 12 16"
  [mode-parse.c]="N 5 6 7 8"
)

mkdir -p "$out"
table=$out/table.txt
printf '%-16s %5s %-8s %7s %9s %8s %13s %9s %9s %8s %8s\n' program size config status wall paths multiplicity queries "solver q" merges "ff/merged" | tee "$table"
for program in "${programs[@]}"; do
  read -r macro sizes <<<"${SIZES[$program]:-N 0}"
  declare -A wall=() limited=()
  largest=""
  for size in $sizes; do
    largest=$size
    for spec in "${configs[@]}"; do
      name=${spec%%=*} opts=${spec#*=}
      if [[ -n ${limited[$name]:-} ]]; then # a larger input than one it did not finish
        wall[$size.$name]=$time_limit
        printf '%-16s %5s %-8s %7s %9s %8s %13s %9s %9s %8s %8s\n' "$program" "$size" "$name" limit "$time_limit" - - - - - - | tee -a "$table"
        continue
      fi
      dir=$out/${program%.c}-$macro$size-$name
      row=""
      rm -rf "$dir"
      for ((run = 0; run < repeat; ++run)); do
        rm -rf "$dir.run"
        # shellcheck disable=SC2086
        "$cairn" run --quiet --search "$search" --max-time "$time_limit" --cflag "-D$macro=$size" $opts \
          --output-dir "$dir.run" "$here/$program" 2>>"$out/stderr.log" || true
        [[ -f $dir.run/summary.json ]] || break
        this=$(python3 - "$dir.run/summary.json" "$time_limit" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["merging"]
status = "limit" if d["paths_partial"] or d["wall_time_s"] >= float(sys.argv[2]) else "done"
print(status, "%.3f" % d["wall_time_s"], d["paths_completed"] + d["paths_partial"], m.get("multiplicity", 0),
      d["queries"], d["solver_queries"], m["merges"], "%d/%d" % (m.get("fast_forwarded", 0), m.get("fast_forwarded_merged", 0)))
PY
)
        # the fastest run's row, and its output directory
        if [[ -z $row ]] || python3 -c "import sys; sys.exit(float(sys.argv[1]) >= float(sys.argv[2]))" "$(cut -d' ' -f2 <<<"$this")" "$(cut -d' ' -f2 <<<"$row")"; then
          row=$this
          rm -rf "$dir"
          mv "$dir.run" "$dir"
        fi
        [[ $this == limit* ]] && break
      done
      rm -rf "$dir.run"
      if [[ -z $row ]]; then
        printf '%-16s %5s %-8s %7s\n' "$program" "$size" "$name" failed | tee -a "$table"
        continue
      fi
      read -r status w paths mult queries sq merges ff <<<"$row"
      wall[$size.$name]=$w
      [[ $status == limit ]] && limited[$name]=1
      printf '%-16s %5s %-8s %7s %9s %8s %13s %9s %9s %8s %8s\n' "$program" "$size" "$name" "$status" "$w" "$paths" "$mult" "$queries" "$sq" "$merges" "$ff" | tee -a "$table"
    done
  done
  base=${configs[0]%%=*}
  line="  $program at $macro=$largest, wall time over $base's:"
  for spec in "${configs[@]:1}"; do
    name=${spec%%=*}
    line+=$(python3 -c "import sys; b, x = float(sys.argv[1]), float(sys.argv[2]); print(' %s %.3gx (%.3gx faster)' % (sys.argv[3], x / b, b / x))" \
      "${wall[$largest.$base]:-0}" "${wall[$largest.$name]:-1}" "$name" 2>/dev/null || echo " $name -")
  done
  for d in dsm dsm-hold; do
    [[ -n ${wall[$largest.ssm]:-} && -n ${wall[$largest.$d]:-} ]] || continue
    line+=$(python3 -c "import sys; s, d = float(sys.argv[1]), float(sys.argv[2]); print('; %s over ssm %.3gx' % (sys.argv[3], d / s))" \
      "${wall[$largest.ssm]}" "${wall[$largest.$d]}" "$d" 2>/dev/null || echo "; $d over ssm -")
  done
  echo "$line" | tee -a "$table"
  unset wall limited
done
