#!/usr/bin/env bash
# The array benchmark: every program of this directory under each configuration, side by side,
# through cairn-bench-engine (one cairn at a time), with `--search dfs --max-time SECONDS` added
# to every configuration. Prints cairn-bench-engine's table and keeps a copy of it.
#
#   tests/bench/arrays/run.sh CAIRN_BINARY [--time SECONDS] [--config 'NAME=OPTIONS']...
#                             [--bench BIN] [--repeat N] [--out DIR]
#
#   --time SECONDS   each run's --max-time (default 60)
#   --config SPEC    a configuration as cairn-bench-engine takes it, 'NAME[@BINARY]=OPTIONS'
#                    (repeatable; the first is the one the ratio columns divide by). Default:
#                    plain='--array-solver plain' and typed='--array-solver typed --array-precheck'
#   --bench BIN      cairn-bench-engine (default: $(dirname CAIRN_BINARY)/../tests/bench/
#                    cairn-bench-engine, where a build tree has it next to client/cairn)
#   --repeat N       cairn-bench-engine's --repeat: the configurations take turns N times and
#                    each keeps its fastest run
#   --out DIR        where the table is kept, as table.txt, with cairn's stderr in stderr.log
#                    (default /dev/shm/cairn-bench-arrays); cairn-bench-engine puts each run's
#                    output directory under /dev/shm itself
#
# Example with the solvers of today:
#   tests/bench/arrays/run.sh build/client/cairn --config z3='--solver z3' --config cvc5='--solver cvc5'
set -euo pipefail

usage() {
  sed -n '6,7p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2
  echo "(see the comment at the top of ${BASH_SOURCE[0]})" >&2
  exit 2
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
(($#)) || usage
case $1 in -h | --help) usage ;; esac
cairn=$1
shift
time_limit=60
bench=""
repeat=1
out=/dev/shm/cairn-bench-arrays
configs=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?--time needs SECONDS}; shift 2 ;;
    --config) configs+=("${2:?--config needs NAME=OPTIONS}"); shift 2 ;;
    --bench) bench=${2:?--bench needs a binary}; shift 2 ;;
    --repeat) repeat=${2:?--repeat needs N}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    -h | --help) usage ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ $time_limit =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "run.sh: --time takes seconds, not '$time_limit'" >&2; exit 2; }
[[ -x $cairn ]] || { echo "run.sh: $cairn is not an executable cairn" >&2; exit 2; }
[[ -n $bench ]] || bench=$(dirname "$cairn")/../tests/bench/cairn-bench-engine
[[ -x $bench ]] || { echo "run.sh: no cairn-bench-engine at $bench (give it with --bench BIN)" >&2; exit 2; }
((${#configs[@]})) || configs=("plain=--array-solver plain" "typed=--array-solver typed --array-precheck")

# cairn-bench-engine adds --search itself (given below); the time limit goes into each
# configuration's options. A configuration without '=' has no options of its own.
args=()
for spec in "${configs[@]}"; do
  if [[ $spec == *=* ]]; then
    args+=(--config "$spec --max-time $time_limit")
  else
    args+=(--config "$spec=--max-time $time_limit")
  fi
done

# An option the binary's `cairn run --help` does not list (such as the default configurations'
# before the array solver exists) makes every run of that configuration show "failed".
for spec in "${configs[@]}"; do
  name=${spec%%=*} binary=$cairn
  [[ $name == *@* ]] && binary=${name#*@}
  [[ $spec == *=* ]] || continue
  help=$("$binary" run --help 2>&1 || true)
  for word in ${spec#*=}; do
    if [[ $word == --* ]] && ! grep -q -- "$word\b" <<<"$help"; then
      echo "run.sh: warning: $binary run --help does not list $word (configuration ${name%%@*}): its runs will likely fail" >&2
    fi
  done
done

mkdir -p "$out"
echo "# $(date '+%F %T') $cairn, --search dfs --max-time $time_limit, repeat $repeat" >"$out/table.txt"
for a in "${args[@]}"; do
  [[ $a == --config ]] || echo "#   --config '$a'" >>"$out/table.txt"
done
# What cairn prints on stderr (a failed run's reason) goes to stderr.log, not between the rows.
"$bench" "$cairn" "$here" --search dfs --repeat "$repeat" "${args[@]}" 2>"$out/stderr.log" |
  tee -a "$out/table.txt"
if grep -q ' failed$' "$out/table.txt"; then
  echo "run.sh: some runs failed; what cairn said is in $out/stderr.log, among it:" >&2
  # Its messages without the usage text that follows an unknown option, each once.
  grep -v -e '^ ' -e ':$' -e '^$' "$out/stderr.log" | sort | uniq -c | sort -rn | head -5 >&2 || true
fi
echo "(table kept in $out/table.txt)" >&2
