#!/usr/bin/env bash
# The real-software suite as a benchmark: each coreutils utility with symbolic arguments, a
# symbolic file and symbolic stdin, and each library driver, for a time limit each; every test
# then replayed natively; one table at the end.
#   tests/real/run-suite.sh [--time SECONDS] [--jobs N] [--out DIR] [--check] [SUBJECT...]
# Subjects: coreutils json-c libyaml libosip2 libtasn1 (default: all); they are built first
# (tests/real/build-subjects.sh). Output directories go to /dev/shm by default: a run writes
# thousands of files.
# --check: exit 1 when a program ended a path on a function nothing defines or models, reported
# an error, gave no summary, or has a test its native run does not reproduce (the CI slice).
# --jobs N: N programs explored side by side (each still gets --time of wall-clock time, so on
# a machine with fewer free cores than N each explores less).
# Environment: CAIRN_BUILD_DIR (default: build), CAIRN_BIN (the cairn to run; default the
# build's: a copy lets the build change during a long run), CAIRN_COREUTILS (the utilities to
# run), CAIRN_DRIVERS (the library drivers to run; default: all of each library's),
# CAIRN_RUN_FLAGS (more `cairn run` flags for every program, e.g. --transform-branches symbolic).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
time_limit=600
jobs=1
out=/dev/shm/cairn-real
check=0
subjects=()
while (($#)); do
  case $1 in
    --time) time_limit=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --check) check=1; shift ;;
    -*) echo "usage: $0 [--time SECONDS] [--jobs N] [--out DIR] [--check] [SUBJECT...]" >&2; exit 2 ;;
    *) subjects+=("$1"); shift ;;
  esac
done
((${#subjects[@]})) || subjects=(coreutils json-c libyaml libosip2 libtasn1)
"$root/tests/real/build-subjects.sh" "${subjects[@]}"
build=$(cd "${CAIRN_BUILD_DIR:-$root/build}" && pwd)
cairn=${CAIRN_BIN:-$build/client/cairn}
read -r -a run_flags <<<"${CAIRN_RUN_FLAGS:-}"
utilities=${CAIRN_COREUTILS:-"echo basename dirname cat wc head tail cut tr seq printf expr od paste fold uniq nl sort join tac comm expand unexpand tsort sum cksum base64 tee"}
rm -rf "$out"
mkdir -p "$out"
results=$out/results.tsv
printf 'subject\tprogram\tseconds\tpaths\ttests\terrors\tlimits\texternal\town_covered\town_total\treplayed\treproduced\tmelded\tspurious\tsummary\n' >"$results"

# One program: explore, replay every test, one line of results.
measure() {
  local subject=$1 name=$2 program=$3 own=$4
  shift 4
  local dir=$out/$subject/$name
  mkdir -p "$(dirname "$dir")"
  local start=$SECONDS
  "$cairn" run --quiet --json --only-new-coverage-tests --max-time "$time_limit" --output-dir "$dir" \
    ${run_flags[@]+"${run_flags[@]}"} "$@" \
    "$program" >"$dir.json" 2>"$dir.stderr" || true
  local seconds=$((SECONDS - start))
  local replay
  replay=$("$cairn" replay "$program" "$dir" 2>/dev/null | tail -1 || true)
  python3 - "$dir.json" "$own" "$subject" "$name" "$seconds" "$replay" >>"$results" <<'PY'
import json, re, sys
path, own, subject, name, seconds, replay = sys.argv[1:]
try:
    s = json.load(open(path))
except Exception:
    print(f"{subject}\t{name}\t{seconds}\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\tno summary")
    sys.exit()
files = [f for f in s["coverage"].get("files", []) if f["file"].endswith(own)]
covered = sum(f["lines_covered"] for f in files)
total = sum(f["lines_total"] for f in files)
external = sum(1 for e in s["errors"] if e["type"] == "external")
# The engine's own limits (a symbolic floating-point operand): no finding about the program.
limits = sum(1 for e in s["errors"] if e["type"] == "model")
errors = len(s["errors"]) - limits - external
m = re.match(r"(\d+) of (\d+) tests reproduced", replay)
done, of = (m.group(1), m.group(2)) if m else ("-", "-")
# With --transform-branches: branches melded, errors of extra instructions dropped.
t = s.get("transform")
melded, spurious = (t["branches_melded"], t["spurious_errors_filtered"]) if t else ("-", "-")
print(f"{subject}\t{name}\t{seconds}\t{s['paths_completed'] + s['paths_partial']}\t{s['tests']}\t"
      f"{errors}\t{limits}\t{external}\t{covered}\t{total}\t{of}\t{done}\t{melded}\t{spurious}\t{path}")
PY
}

driver_flags() {
  local dir=$build/real/$1/install
  case $1 in
    json-c) echo "-I$dir/include/json-c $dir/lib/libjson-c.a" ;;
    libyaml) echo "-I$dir/include $dir/lib/libyaml.a" ;;
    libosip2) echo "-I$dir/include $dir/lib/libosipparser2.a" ;;
    libtasn1) echo "-I$dir/include $dir/lib/libtasn1.a" ;;
  esac
}

drivers_of() {
  if [[ -n ${CAIRN_DRIVERS:-} ]]; then
    for d in $CAIRN_DRIVERS; do [[ $(subject_of "$d") == "$1" ]] && echo "$d"; done
    return
  fi
  case $1 in
    json-c) echo json-parse json-strict json-roundtrip json-pointer ;;
    libyaml) echo yaml-scan yaml-events yaml-load ;;
    libosip2) echo sip-message sip-uri sip-header ;;
    libtasn1) echo asn1-length asn1-strings asn1-simple ;;
  esac
}

# Runs `measure` in the background once fewer than --jobs run.
measure_soon() {
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  measure "$@" &
}

subject_of() {
  case $1 in
    json-*) echo json-c ;; yaml-*) echo libyaml ;; sip-*) echo libosip2 ;; asn1-*) echo libtasn1 ;;
  esac
}

for subject in "${subjects[@]}"; do
  if [[ $subject == coreutils ]]; then
    for u in $utilities; do
      measure_soon coreutils "$u" "$build/real/coreutils/src/$u" "src/$u.c" \
        --sym-args 0 2 4 --sym-files 1 8 --sym-stdin 8
    done
    continue
  fi
  mkdir -p "$out/bin"
  for d in $(drivers_of "$subject"); do
    # shellcheck disable=SC2046
    "$cairn" cc -g -I"$root/runtime/include" "$root/tests/real/drivers/$d.c" $(driver_flags "$subject") \
      -o "$out/bin/$d"
    measure_soon "$subject" "$d" "$out/bin/$d" "drivers/$d.c"
  done
done
wait

python3 - "$results" <<'PY'
import csv, sys
rows = sorted(csv.DictReader(open(sys.argv[1]), delimiter="\t"), key=lambda r: (r["subject"], r["program"]))
transformed = any(r["melded"] != "-" for r in rows)
print(f"{'subject':10} {'program':16} {'s':>5} {'paths':>8} {'tests':>6} {'errors':>6} {'limits':>6} {'ext':>4} {'own lines':>12} {'replayed':>10}"
      + (f" {'melded':>6} {'spurious':>8}" if transformed else ""))
for r in rows:
    cov = f"{r['own_covered']}/{r['own_total']}"
    if r["own_total"] not in ("-", "0"):
        cov += f" {100 * int(r['own_covered']) / int(r['own_total']):.0f}%"
    rep = f"{r['reproduced']}/{r['replayed']}"
    print(f"{r['subject']:10} {r['program']:16} {r['seconds']:>5} {r['paths']:>8} {r['tests']:>6} {r['errors']:>6} {r['limits']:>6} {r['external']:>4} {cov:>12} {rep:>10}"
          + (f" {r['melded']:>6} {r['spurious']:>8}" if transformed else ""))
PY
echo "results: $results"
if ((check)); then
  python3 - "$results" <<'PY'
import csv, sys
bad = []
for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    name = f"{r['subject']}/{r['program']}"
    if r["paths"] == "-":
        bad.append(f"{name}: no summary")
        continue
    if r["external"] != "0":
        bad.append(f"{name}: {r['external']} paths ended on a function nothing defines or models")
    if r["errors"] != "0":
        bad.append(f"{name}: {r['errors']} errors reported")
    if r["replayed"] == "-" or r["replayed"] != r["reproduced"]:
        bad.append(f"{name}: {r['reproduced']} of {r['replayed']} tests reproduced natively")
for b in bad:
    print("FAILED:", b)
print(f"{'0' if bad else 'all'} checks passed" if not bad else f"{len(bad)} checks failed")
sys.exit(1 if bad else 0)
PY
fi
