#!/usr/bin/env bash
# The targeted control-flow transformation on real programs, as the paper measured it: the
# libosip2, libyaml and json-c drivers and four coreutils (chcon, chown, mkdir, mkfifo), each
# explored for the same time without and with --transform-branches symbolic; one table of line
# coverage, paths, errors and the errors of extra instructions dropped, side by side.
#   tests/bench/transform/real-programs.sh [--time SECONDS] [--jobs N] [--out DIR]
# (default 600 s each, the paper's ten minutes; one program at a time in each configuration, the
# two configurations side by side: 2 N cores busy). Each configuration is a run of
# tests/real/run-suite.sh, every test replayed natively on the original program.
# CAIRN_DRIVERS (the library drivers; default all of each library's) as for run-suite.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
time_limit=600
jobs=1
out=/dev/shm/cairn-transform-real
while (($#)); do
  case $1 in
    --time) time_limit=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--time SECONDS] [--jobs N] [--out DIR]" >&2; exit 2 ;;
  esac
done
# A copy of cairn: the build may change while the runs go on.
mkdir -p "$out"
cp "${CAIRN_BIN:-$root/build/client/cairn}" "$out/cairn"
export CAIRN_BIN=$out/cairn CAIRN_COREUTILS="chcon chown mkdir mkfifo"
# Both configurations at once, the same program in each at the same time, so that a busy
# machine slows both alike.
"$root/tests/real/build-subjects.sh" coreutils json-c libyaml libosip2 >"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log" >&2; exit 1; }
for config in plain transform; do
  flags=""
  [[ $config == transform ]] && flags="--transform-branches symbolic"
  CAIRN_RUN_FLAGS=$flags "$root/tests/real/run-suite.sh" --time "$time_limit" --jobs "$jobs" \
    --out "$out/$config" coreutils json-c libyaml libosip2 >"$out/$config.log" 2>&1 &
done
failed=0
for config in plain transform; do wait -n || failed=1; done
((failed == 0)) || { tail -20 "$out/plain.log" "$out/transform.log" >&2; exit 1; }

python3 - "$out/plain/results.tsv" "$out/transform/results.tsv" <<'PY'
import csv, sys
def rows(path):
    return {(r["subject"], r["program"]): r for r in csv.DictReader(open(path), delimiter="\t")}
plain, melded = rows(sys.argv[1]), rows(sys.argv[2])
def cov(r):
    if r["own_total"] in ("-", "0"):
        return "-"
    return f"{r['own_covered']}/{r['own_total']} {100 * int(r['own_covered']) / int(r['own_total']):.0f}%"
print(f"{'program':24} {'lines plain':>14} {'lines transf.':>14} {'paths plain':>11} {'paths tr.':>10} "
      f"{'errors p/t':>10} {'melded':>6} {'spurious':>8} {'replayed p/t':>14}")
more = same = fewer = 0
for key in sorted(plain):
    p, t = plain[key], melded.get(key)
    if not t:
        continue
    if p["own_covered"] not in ("-",) and t["own_covered"] not in ("-",):
        d = int(t["own_covered"]) - int(p["own_covered"])
        more, same, fewer = more + (d > 0), same + (d == 0), fewer + (d < 0)
    print(f"{key[0] + '/' + key[1]:24} {cov(p):>14} {cov(t):>14} {p['paths']:>11} {t['paths']:>10} "
          f"{p['errors'] + '/' + t['errors']:>10} {t['melded']:>6} {t['spurious']:>8} "
          f"{p['reproduced'] + '/' + p['replayed'] + ' ' + t['reproduced'] + '/' + t['replayed']:>14}")
print(f"coverage with the transformation: more on {more}, the same on {same}, less on {fewer}")
PY
