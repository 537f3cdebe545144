#!/usr/bin/env bash
# The array solver on real programs: coreutils utilities and library drivers (the real-software
# suite's, tests/real/run-suite.sh), DFS, the same time each, under two configurations side by
# side (default plain='--array-solver plain' and typed='--array-solver typed --array-precheck'),
# one table of queries, solver queries and time, paths and lines.
#   tests/bench/arrays/real-programs.sh [--time SECONDS] [--out DIR] [--config 'NAME=OPTIONS']...
# (default 60 s each; one program at a time in each configuration, the two configurations at
# once: 2 cores busy). Every test is replayed natively (run-suite.sh's check of each run).
# CAIRN_COREUTILS and CAIRN_DRIVERS choose the programs (default below); CAIRN_BIN the cairn.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
time_limit=60
out=/dev/shm/cairn-arrays-real
configs=()
while (($#)); do
  case $1 in
    --time) time_limit=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --config) configs+=("${2:?}"); shift 2 ;;
    *) echo "usage: $0 [--time SECONDS] [--out DIR] [--config 'NAME=OPTIONS']..." >&2; exit 2 ;;
  esac
done
((${#configs[@]})) || configs=("plain=--array-solver plain" "typed=--array-solver typed --array-precheck")
((${#configs[@]} == 2)) || { echo "real-programs.sh: give two configurations (or none)" >&2; exit 2; }
mkdir -p "$out"
# A copy of cairn: the build may change while the runs go on.
cp "${CAIRN_BIN:-$root/build/client/cairn}" "$out/cairn"
export CAIRN_BIN=$out/cairn
# Utilities whose input goes through tables, counters and buffers indexed by input (tr's
# translation table, sum's and wc's counters, cut's and fold's column positions), and one
# driver of each library.
export CAIRN_COREUTILS=${CAIRN_COREUTILS:-"tr sum wc cut fold paste"}
export CAIRN_DRIVERS=${CAIRN_DRIVERS:-"json-parse yaml-scan sip-uri"}
"$root/tests/real/build-subjects.sh" coreutils json-c libyaml libosip2 >"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log" >&2; exit 1; }
names=()
for spec in "${configs[@]}"; do
  name=${spec%%=*}
  names+=("$name")
  CAIRN_RUN_FLAGS="--search dfs ${spec#*=}" "$root/tests/real/run-suite.sh" --time "$time_limit" \
    --out "$out/$name" coreutils json-c libyaml libosip2 >"$out/$name.log" 2>&1 &
done
failed=0
for _ in "${names[@]}"; do wait -n || failed=1; done
((failed == 0)) || { tail -20 "$out/${names[0]}.log" "$out/${names[1]}.log" >&2; exit 1; }

python3 - "${names[@]}" "$out/${names[0]}/results.tsv" "$out/${names[1]}/results.tsv" <<'PY'
import csv, json, sys
a, b, pa, pb = sys.argv[1:]
def rows(path):
    return {(r["subject"], r["program"]): r for r in csv.DictReader(open(path), delimiter="\t")}
def summary(r):
    try:
        return json.load(open(r["summary"]))
    except Exception:
        return None
A, B = rows(pa), rows(pb)
head = f"{'program':20}"
for n in (a, b):
    head += f" {n + ' queries':>14} {n + ' solver q':>14} {n + ' solver s':>12} {n + ' paths':>10} {n + ' lines':>10}"
print(head + f" {'queries ' + b + '/' + a:>16} {'replayed':>10}")
for key in sorted(A):
    ra, rb = A[key], B.get(key)
    sa, sb = summary(ra), rb and summary(rb)
    if not sa or not sb:
        print(f"{key[1]:20} no summary")
        continue
    line = f"{key[1]:20}"
    for s, r in ((sa, ra), (sb, rb)):
        line += (f" {s['queries']:>14} {s['solver_queries']:>14} {s['solver_time_s']:>12.1f}"
                 f" {s['paths_completed'] + s['paths_partial']:>10} {r['own_covered']:>10}")
    ratio = sb["queries"] / sa["queries"] if sa["queries"] else float("nan")
    print(line + f" {ratio:>16.2f} {ra['reproduced'] + '/' + ra['replayed'] + ' ' + rb['reproduced'] + '/' + rb['replayed']:>10}")
PY
