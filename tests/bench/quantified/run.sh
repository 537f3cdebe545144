#!/usr/bin/env bash
# The state-merging-with-quantifiers benchmark: each program of this directory at growing
# sizes, forking (BASE), merged with the execution tree (CFG) and merged with quantifiers (PAT),
# side by side, each run to the end or to --time. Prints one table row per run and, per
# program, PAT's time over CFG's at its largest size.
#
#   tests/bench/quantified/run.sh CAIRN_BINARY [--time SECONDS] [--search S] [--out DIR]
#                                 [--config 'NAME=OPTIONS']... [PROGRAM...]
#
#   --time SECONDS   each run's --max-time (default 120); a run that hits it shows "limit"
#   --search S       the searcher of every run (default dfs, as the paper's runs)
#   --config SPEC    'NAME=OPTIONS' (repeatable; replaces the default three)
#   --out DIR        the runs' output directories and table.txt (default /dev/shm/cairn-bench-quantified)
#   PROGRAM          a file name of this directory (default: all of them), or drivers/NAME.c:
#                    a library driver (the paper's subjects: json-c, libosip2), built with `cairn cc`
#                    against the library tests/real/build-subjects.sh built (run it first) and
#                    run under --libc full; default only when that library is there
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { sed -n '7,8p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
(($#)) || usage
cairn=$1
shift
time_limit=120
search=dfs
out=/dev/shm/cairn-bench-quantified
configs=()
programs=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?}; shift 2 ;;
    --search) search=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --config) configs+=("${2:?}"); shift 2 ;;
    -h | --help) usage ;;
    -*) echo "run.sh: unknown option '$1'" >&2; usage ;;
    *) programs+=("$1"); shift ;;
  esac
done
[[ -x $cairn ]] || { echo "run.sh: $cairn is not an executable cairn" >&2; exit 2; }
# The symbolic-size programs: forking lazily, merging loops with the tree, with quantifiers.
# memspn-ab merges a klee_open_merge region: BASE forks (no --merge-encoding), CFG merges
# with the tree, PAT with quantifiers and incremental merging (its disjunctive code needs it).
((${#configs[@]})) || configs=("BASE=--size-mode lazy" "CFG=--size-mode merge-opt"
                               "PAT=--size-mode merge-opt --merge-encoding quantified")
build=${CAIRN_BUILD_DIR:-$(cd "$(dirname "$cairn")/.." && pwd)}
if ((${#programs[@]} == 0)); then
  programs=(strchr-chain.c token-scan.c header-split.c memspn-ab.c)
  [[ -f $build/real/json-c/install/lib/libjson-c.a ]] && programs+=(drivers/json-symsize.c)
  [[ -f $build/real/libosip2/install/lib/libosipparser2.a ]] && programs+=(drivers/sip-symsize.c)
  [[ -f $build/real/apr/install/lib/libapr-1.a ]] && programs+=(drivers/apr-symsize.c)
fi

# Per program: its sizes, each MACRO=VALUE,capacity (capacity 0: not a symbolic-size program).
declare -A SIZES=(
  [strchr-chain.c]="CHAIN=2,16 CHAIN=3,16 CHAIN=3,32"
  [token-scan.c]="CHAIN=2,16 CHAIN=3,16 CHAIN=3,32"
  [header-split.c]="CHAIN=2,16 CHAIN=3,16 CHAIN=3,32"
  [memspn-ab.c]="N=6,0 N=10,0 N=14,0"
  [drivers/json-symsize.c]="LIBRARY=json-c,8"
  [drivers/sip-symsize.c]="LIBRARY=libosip2,8"
  [drivers/apr-symsize.c]="LIBRARY=apr,8"
)
# A driver's library: the compiler flags that link it.
driver_flags() {
  local dir=$build/real/$1/install
  case $1 in
    json-c) echo "-I$dir/include/json-c $dir/lib/libjson-c.a" ;;
    libosip2) echo "-I$dir/include $dir/lib/libosipparser2.a" ;;
    apr) echo "-I$dir/include/apr-1 $dir/lib/libapr-1.a" ;;
  esac
}

mkdir -p "$out"
table=$out/table.txt
printf '%-16s %-12s %-5s %7s %9s %7s %7s %9s %9s %8s %9s %8s\n' program size config status wall paths lines queries "solver q" merges quantified fallback | tee "$table"
for program in "${programs[@]}"; do
  declare -A wall=()
  largest=""
  for size in ${SIZES[$program]}; do
    define=${size%,*} capacity=${size#*,}
    largest=$size
    for spec in "${configs[@]}"; do
      name=${spec%%=*} opts=${spec#*=}
      if [[ $capacity == 0 ]]; then # a merge region: the size options do not apply
        case $name in
          BASE) opts="--merge-strategy none --max-merge-states 1" ;;
          CFG) opts="--merge-encoding tree" ;;
          PAT) opts="--merge-encoding quantified --incremental-merging" ;;
        esac
      else
        opts="--size-model symbolic --capacity $capacity $opts"
      fi
      base=$(basename "${program%.c}")
      dir=$out/$base-${define/=/}-c$capacity-$name
      rm -rf "$dir"
      target=$here/$program
      if [[ $program == drivers/* ]]; then # built once against its library, run on musl
        target=$out/bin/$base
        if [[ ! -x $target ]]; then
          mkdir -p "$out/bin"
          # shellcheck disable=SC2046
          "$cairn" cc -g -I"$here/../../../runtime/include" -I"$here/../../real/drivers" "$here/$program" \
            $(driver_flags "${define#*=}") -o "$target"
        fi
        opts="--libc full --merge-loops-with-calls $opts"
      else
        opts="--cflag -D$define $opts"
      fi
      # shellcheck disable=SC2086
      "$cairn" run --quiet --search "$search" --max-time "$time_limit" $opts \
        --output-dir "$dir" "$target" 2>>"$out/stderr.log" || true
      if [[ ! -f $dir/summary.json ]]; then
        printf '%-16s %-12s %-5s %7s\n' "$program" "$define,$capacity" "$name" failed | tee -a "$table"
        continue
      fi
      row=$(python3 - "$dir/summary.json" "$time_limit" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["merging"]
q = next((l for l in d["solver"]["layers"] if l["layer"] == "quantified"), {})
status = "limit" if d["wall_time_s"] >= float(sys.argv[2]) - 0.5 else "done"
print(status, "%.2f" % d["wall_time_s"], d["paths_completed"] + d["paths_partial"], d["coverage"]["lines_covered"],
      d["queries"], d["solver_queries"], m["merges"], q.get("quantified_queries", 0), q.get("fallback", 0))
PY
)
      read -r status seconds paths lines queries solver merges quantified fallback <<<"$row"
      wall[$size,$name]=$seconds
      printf '%-16s %-12s %-5s %7s %9s %7s %7s %9s %9s %8s %9s %8s\n' "$program" "$define,$capacity" "$name" "$status" \
        "$seconds" "$paths" "$lines" "$queries" "$solver" "$merges" "$quantified" "$fallback" | tee -a "$table"
    done
  done
  if [[ -n $largest && -n ${wall[$largest,CFG]:-} && -n ${wall[$largest,PAT]:-} ]]; then
    python3 -c "import sys; c, p = float(sys.argv[1]), float(sys.argv[2]); print('  %s at %s: CFG/PAT %.2fx' % (sys.argv[3], sys.argv[4], c / max(p, 0.001)))" \
      "${wall[$largest,CFG]}" "${wall[$largest,PAT]}" "$program" "$largest" | tee -a "$table"
  fi
  unset wall
done
