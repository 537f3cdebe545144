#!/usr/bin/env bash
# Proves that two builds of Cairn explore the end-to-end corpus identically: for every program
# of tests/e2e/programs and every variant the e2e suite runs it under, `cairn run` of OLD and of
# NEW must leave the same outputs.
#
#   tests/compare-builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [-j N] [--filter REGEX] [--keep]
#
#   -j N            N runs at a time (default 2); each job runs OLD then NEW for one (program,
#                   variant), so at most N cairn processes run at once
#   --filter REGEX  only the runs whose ctest name (e2e-NAME, e2e-NAME-relocatable,
#                   e2e-NAME-VARIANT) matches REGEX (bash =~, extended regular expression)
#   --keep          keep the work directory under /dev/shm (its path is printed)
#
# Prints one line per (program, variant): `same`, the first difference, or `nondeterministic`
# (see below), the time taken, then `N passed, N failed`. Exit status: 0 when everything is the
# same, 1 when a run differs (or failed, or was nondeterministic), 2 for a usage or setup error.
#
# --- Which runs (mirrors tests/e2e/CMakeLists.txt and tests/e2e/run-e2e.cmake) ---------------
# For each programs/NAME.c, as ctest registers them:
#   e2e-NAME              cairn run --json --quiet --output-dir OUT <CAIRN-ARGS> NAME.c [-- ARGV]
#   e2e-NAME-relocatable  cairn run --json --quiet --output-dir OUT <CAIRN-ARGS> <COMPARE_ARGS>
#                         NAME.c [-- ARGV], COMPARE_ARGS read from tests/e2e/CMakeLists.txt
#                         (--memory-model relocatable --address-aware-cache
#                         --validate-address-cache at the time of writing). run-e2e.cmake also
#                         makes a "baseline" run there without COMPARE_ARGS: that is exactly the
#                         e2e-NAME command, so it is not run twice.
#   e2e-NAME-VARIANT      one per `// CAIRN-VARIANT: VARIANT ARGS` line: ARGS replace CAIRN-ARGS
# All `// CAIRN-ARGS:` lines of a program are concatenated; what follows `--` is the program's
# argv and goes after the program, as run-e2e.cmake does. Arguments are split on blanks (CMake's
# separate_arguments(UNIX_COMMAND)); a header line with quotes, backslashes, `$` or `;` is refused
# rather than split differently from CMake.
# Not reproduced: run-e2e.cmake's `cairn replay` (a native build of the program with the
# sanitizers: it checks the tests against the program, not the engine against itself).
#
# The corpus is copied to the work directory first and both builds run that copy, so an edit
# of tests/e2e/programs during the comparison cannot show up as a difference. Both must see the
# same path: it is argv[0] in every .ktest, and assert()'s __FILE__ puts it in .err files and in
# summary.json's errors[].file. CAIRN_RUNTIME_BC and
# CAIRN_RUNTIME_INCLUDE are unset: each build uses its own runtime bitcode and cairn.h. TMPDIR
# (where cairn compiles the program) is the work directory too.
#
# --- What is compared, per run (first difference reported) ------------------------------------
#   1. both exited 0 (the suite requires it; two identical failures are not a pass);
#   2. the set of file names in the output directory (but for the excluded run.log, below);
#   3. summary.json, parsed (key order and duplicates kept) with every time-valued field removed
#      at any depth: keys `seconds`, `time`, and keys ending in `_s`, `_seconds` or `_ms`. In
#      summary.json that is wall_time_s, solver_time_s and solver.layers[].time_s (printed with
#      "%.3f"); everything else, counters included, must be equal;
#   4. every other file of the output directory byte for byte: the .ktest tests, the .TYPE.err
#      error files, the .early partial-path files, and whatever else a build writes there;
#   5. stdout: the program's own output before the JSON summary byte for byte, then the summary
#      normalised as in 3;
#   6. stderr byte for byte, with the run's own work directory replaced by a placeholder and
#      spdlog's leading "[date time] " stamps removed (with --quiet only errors reach stderr).
# Excluded: `run.log` in the output directory -- the spdlog run log: every line starts with a
# wall-clock timestamp, the first one holds the command line with the (per-build) output
# directory, and the solver-layer lines hold seconds. Its facts (errors, solver counters,
# summary) are in summary.json, which is compared.
# Source paths: when the two builds come from different source trees (CMAKE_HOME_DIRECTORY in
# their CMakeCache.txt), each tree's path followed by `/` is replaced by `<SRC>/` in the text
# outputs (.err, .early, summary.json, stdout, stderr) before comparing. Each build compiles the
# program against its own tree's runtime/include/cairn.h and links its own runtime bitcode, so a
# __FILE__ or debug-info path from there would name the tree (today's error stacks show runtime
# frames as relative paths, `__assert_fail at runtime/lib/assert.c:8`, so this is a safety net).
# Nothing is rewritten when both builds share a source tree or one's is unknown.
#
# --- Nondeterminism ------------------------------------------------------------------------------
# Two known sources, found by comparing a build with itself; for them the comparison leaves out
# exactly what they make vary, and the table says so (`same (...: ... not compared)`):
#   --max-time (limit_max_time.c, both its runs): the run stops after a wall-clock second, so the
#     summary's `instructions` (how far the two states got in their 4e9-iteration loop by then:
#     35.6M in one run, 37.9M in another) depends on the machine's speed and load. Forks, counts,
#     coverage, tests and .early files do not (both states fork first, then loop), and are
#     compared.
#   --solver portfolio (sort_crosscheck.c's `portfolio` variant): PortfolioSolver races a Z3 and a
#     cvc5 thread on each query and takes the first answer, so which solver's model becomes a
#     test's input differs from run to run (most of its 24 .ktest files differed between six
#     runs of one binary), as do the per-lane counters (layers `portfolio-z3`, `portfolio-cvc5`:
#     queries, answered) and the top-level `solver_queries` (the last layer's, portfolio-cvc5's,
#     queries). For that run the .ktest files are compared without their objects' bytes
#     (arguments, object names and sizes still are) and those counters are left out; paths, forks,
#     instructions, coverage, errors and every other file and counter are compared as usual.
# Anything else: when OLD and NEW differ, OLD is run a second time. If OLD also differs from
# itself, the run is reported `nondeterministic` (with OLD's difference from itself and the
# OLD-NEW one) instead of being blamed on NEW; it counts as failed (nothing was proved for it)
# and the number of such runs gets its own line before the total. A self-comparison of
# /work/baseline/build found none beyond the two above.
set -uo pipefail

SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
TESTS_DIR="$(dirname "$SELF")"
E2E_DIR="$TESTS_DIR/e2e"

die() { echo "compare-builds: $*" >&2; exit 2; }

# ----------------------------------------------------------------------------------------------
# The comparison of two runs (python3: JSON parsing). argv: A B PROFILE A_SRC B_SRC
# Each of A and B is a run directory holding out/, stdout, stderr, rc. Prints "same" or the
# first difference (one line, with the number of further differences).
compare_runs() {
  python3 - "$@" <<'PY'
import json, os, re, sys

a_dir, b_dir, profile, a_src, b_src = sys.argv[1:6]
profile = set(profile.split(",")) - {"-", ""}   # known nondeterminism (header of the script)
EXCLUDED = {"run.log"}       # see the header of compare-builds.sh
TEXT_SUFFIXES = (".err", ".early", ".json")

def is_time_key(k):
    return k in ("seconds", "time") or k.endswith(("_s", "_seconds", "_ms"))

def left_out(path, k, obj):
    """Whether key k of the object at path (".a.b", "" for the top) is not compared."""
    if is_time_key(k):
        return True
    if "max-time" in profile and path == "" and k == "instructions":
        return True
    if "portfolio" in profile:
        if path == "" and k == "solver_queries":     # the last layer's queries: portfolio-cvc5's
            return True
        layer = dict(obj).get("layer")
        if path == ".solver.layers[]" and isinstance(layer, str) and layer.startswith("portfolio-") \
                and k != "layer":
            return True
    return False

def normalise(v, path=""):
    """Drops time-valued keys at any depth; keeps key order (and duplicates) as pairs."""
    if isinstance(v, list) and v and all(isinstance(p, tuple) for p in v):
        return [(k, normalise(x, path + "." + k)) for k, x in v if not left_out(path, k, v)]
    if isinstance(v, list):
        return [normalise(x, path + "[]") for x in v]
    return v

def ktest_shape(data):
    """A .ktest with its objects' bytes blanked: arguments, object names and sizes remain."""
    try:
        out, i = bytearray(data[:5]), 5
        u32 = lambda: int.from_bytes(data[i:i + 4], "big")
        version = u32(); out += data[i:i + 4]; i += 4
        nargs = u32(); out += data[i:i + 4]; i += 4
        for _ in range(nargs):
            n = u32(); out += data[i:i + 4 + n]; i += 4 + n
        if version >= 2:
            out += data[i:i + 8]; i += 8
        nobj = u32(); out += data[i:i + 4]; i += 4
        for _ in range(nobj):
            n = u32(); out += data[i:i + 4 + n]; i += 4 + n
            n = u32(); out += data[i:i + 4] + b"\0" * n; i += 4 + n
        if data[:5] != b"KTEST" or i != len(data):
            raise ValueError
        return bytes(out)
    except (ValueError, IndexError):
        return data

def parse_json(text):
    return json.loads(text, object_pairs_hook=lambda pairs: [tuple(p) for p in pairs])

def first_json_difference(x, y, path="summary"):
    """The path and values of the first difference between normalised JSON values."""
    xo = isinstance(x, list) and x and all(isinstance(p, tuple) for p in x)
    yo = isinstance(y, list) and y and all(isinstance(p, tuple) for p in y)
    if xo and yo:
        for (kx, vx), (ky, vy) in zip(x, y):
            if kx != ky:
                return f"{path}: key '{kx}' vs '{ky}'"
            d = first_json_difference(vx, vy, f"{path}.{kx}")
            if d:
                return d
        if len(x) != len(y):
            extra = [k for k, _ in (x if len(x) > len(y) else y)][min(len(x), len(y)):]
            return f"{path}: {'OLD' if len(x) > len(y) else 'NEW'} alone has {', '.join(extra)}"
        return None
    if isinstance(x, list) and isinstance(y, list) and not xo and not yo:
        for i, (vx, vy) in enumerate(zip(x, y)):
            d = first_json_difference(vx, vy, f"{path}[{i}]")
            if d:
                return d
        if len(x) != len(y):
            return f"{path}: {len(x)} vs {len(y)} entries"
        return None
    if x != y or type(x) != type(y):
        sx, sy = json.dumps(x), json.dumps(y)
        if len(sx) > 60: sx = sx[:57] + "..."
        if len(sy) > 60: sy = sy[:57] + "..."
        return f"{path}: {sx} vs {sy}"
    return None

def read(p):
    try:
        with open(p, "rb") as f:
            return f.read()
    except OSError:
        return None

def text(data, src, run_dir):
    """Text outputs with the source tree and the run's own directory made neutral."""
    if data is None:
        return None
    if src:
        data = data.replace(src.encode() + b"/", b"<SRC>/")
    return data.replace(run_dir.encode(), b"<RUN>")

def stamp_free(data):
    return re.sub(rb"(?m)^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\] ", b"", data)

def first_byte_difference(x, y):
    n = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return f"first differing byte at {n} ({len(x)} vs {len(y)} bytes)"

def summary_difference(x, y, what):
    try:
        jx, jy = normalise(parse_json(x)), normalise(parse_json(y))
    except ValueError as e:
        return f"{what}: not JSON ({e})"
    return first_json_difference(jx, jy, what)

differences = []
def differ(msg):
    differences.append(msg)

rc_a = (read(os.path.join(a_dir, "rc")) or b"?").strip().decode()
rc_b = (read(os.path.join(b_dir, "rc")) or b"?").strip().decode()
err_a = (read(os.path.join(a_dir, "stderr")) or b"").decode(errors="replace").strip().splitlines()
err_b = (read(os.path.join(b_dir, "stderr")) or b"").decode(errors="replace").strip().splitlines()
if rc_a != "0" or rc_b != "0":
    what = err_a[-1] if rc_a != "0" and err_a else (err_b[-1] if err_b else "")
    print(f"FAILED RUN: exit status OLD {rc_a}, NEW {rc_b}" + (f": {what[:120]}" if what else ""))
    sys.exit(0)

out_a, out_b = os.path.join(a_dir, "out"), os.path.join(b_dir, "out")
files_a = set(os.listdir(out_a)) - EXCLUDED if os.path.isdir(out_a) else set()
files_b = set(os.listdir(out_b)) - EXCLUDED if os.path.isdir(out_b) else set()
if "summary.json" not in files_a:
    differ("OLD wrote no summary.json")
if files_a != files_b:
    only_a, only_b = sorted(files_a - files_b), sorted(files_b - files_a)
    parts = []
    if only_a: parts.append(f"only OLD has {len(only_a)} ({', '.join(only_a[:3])}{', ...' if len(only_a) > 3 else ''})")
    if only_b: parts.append(f"only NEW has {len(only_b)} ({', '.join(only_b[:3])}{', ...' if len(only_b) > 3 else ''})")
    differ("files: " + "; ".join(parts))

for name in sorted(files_a & files_b):
    fa, fb = os.path.join(out_a, name), os.path.join(out_b, name)
    if os.path.isdir(fa) or os.path.isdir(fb):
        differ(f"{name}: a directory")
        continue
    x, y = read(fa), read(fb)
    if name == "summary.json":
        d = summary_difference(text(x, a_src, a_dir), text(y, b_src, b_dir), "summary.json")
        if d:
            differ(d)
        continue
    if name.endswith(TEXT_SUFFIXES):
        x, y = text(x, a_src, a_dir), text(y, b_src, b_dir)
    if name.endswith(".ktest") and "portfolio" in profile:
        x, y = ktest_shape(x), ktest_shape(y)
    if x != y:
        differ(f"{name} differs: {first_byte_difference(x, y)}")

# stdout: the program's output, then the summary (the last JSON object, as run-e2e.cmake reads it).
so_a, so_b = read(os.path.join(a_dir, "stdout")) or b"", read(os.path.join(b_dir, "stdout")) or b""
so_a, so_b = text(so_a, a_src, a_dir), text(so_b, b_src, b_dir)
ia, ib = so_a.rfind(b'{"paths_completed"'), so_b.rfind(b'{"paths_completed"')
if ia < 0 or ib < 0:
    if ia != ib:
        differ("stdout: only " + ("NEW" if ia < 0 else "OLD") + " printed a JSON summary")
    elif so_a != so_b:
        differ(f"stdout differs: {first_byte_difference(so_a, so_b)}")
else:
    if so_a[:ia] != so_b[:ib]:
        differ(f"stdout (program output) differs: {first_byte_difference(so_a[:ia], so_b[:ib])}")
    d = summary_difference(so_a[ia:], so_b[ib:], "stdout JSON")
    if d:
        differ(d)

se_a = stamp_free(text(read(os.path.join(a_dir, "stderr")) or b"", a_src, a_dir))
se_b = stamp_free(text(read(os.path.join(b_dir, "stderr")) or b"", b_src, b_dir))
if se_a != se_b:
    differ(f"stderr differs: {first_byte_difference(se_a, se_b)}")

if not differences:
    print("same")
else:
    more = f" (+{len(differences) - 1} more)" if len(differences) > 1 else ""
    print(differences[0] + more)
PY
}

# ----------------------------------------------------------------------------------------------
# One cairn run. argv: CAIRN RUN_DIR ARGS... (the arguments after `cairn run`, the output
# directory excluded; RUN_DIR/out is added). Leaves out/, stdout, stderr, rc and seconds.
run_cairn() {
  local cairn=$1 dir=$2
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  local t0=$EPOCHREALTIME
  # The test suite's own limit (ctest TIMEOUT) is 600 s with replay: a hang ends the same way.
  (cd "$dir" && exec timeout --kill-after=10 600 "$cairn" run --json --quiet --output-dir "$dir/out" "$@") \
    >"$dir/stdout" 2>"$dir/stderr"
  echo $? >"$dir/rc"
  echo "$t0 $EPOCHREALTIME" | awk '{printf "%.1f\n", $2 - $1}' >"$dir/seconds"
}

# ----------------------------------------------------------------------------------------------
# Worker mode (one job of xargs): `compare-builds.sh --worker WORK INDEX`.
if [[ ${1-} == --worker ]]; then
  WORK=$2 index=$3
  source "$WORK/config"                                 # OLD_CAIRN NEW_CAIRN OLD_SRC NEW_SRC
  name=$(sed -n 1p "$WORK/jobs/$index")
  profile=$(sed -n 2p "$WORK/jobs/$index")
  mapfile -d '' args < <(tail -n +3 "$WORK/jobs/$index" | tr '\n' '\0')
  old="$WORK/old/$name" new="$WORK/new/$name"
  run_cairn "$OLD_CAIRN" "$old" "${args[@]}"
  run_cairn "$NEW_CAIRN" "$new" "${args[@]}"
  result=$(compare_runs "$old" "$new" "$profile" "$OLD_SRC" "$NEW_SRC" 2>&1 | tail -n 1)
  if [[ $result != same && $result != FAILED\ RUN* ]]; then
    # OLD against itself: is this the engine's nondeterminism rather than NEW's change?
    again="$WORK/old-again/$name"
    run_cairn "$OLD_CAIRN" "$again" "${args[@]}"
    self=$(compare_runs "$old" "$again" "$profile" "$OLD_SRC" "$OLD_SRC" 2>&1 | tail -n 1)
    if [[ $self != same ]]; then
      result="nondeterministic: OLD differs from itself: $self | OLD vs NEW: $result"
    fi
  fi
  if [[ $result == same && $profile != - ]]; then
    case $profile in
      max-time) result="same (--max-time: instructions not compared)" ;;
      portfolio) result="same (solver race: .ktest values, per-lane counters not compared)" ;;
      *) result="same ($profile: parts not compared)" ;;
    esac
  fi
  printf '%s\n' "$result" >"$WORK/results/$index"
  exit 0
fi

# ----------------------------------------------------------------------------------------------
# Arguments.
usage() {
  echo "usage:" >&2
  sed -n '/^#   tests\/compare-builds.sh/,/^#   --keep/p' "$SELF" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
OLD_BUILD="" NEW_BUILD="" JOBS=2 FILTER="" KEEP=0
while (($#)); do
  case $1 in
    -j) [[ $# -ge 2 ]] || usage; JOBS=$2; shift 2 ;;
    -j*) JOBS=${1#-j}; shift ;;
    --filter) [[ $# -ge 2 ]] || usage; FILTER=$2; shift 2 ;;
    --filter=*) FILTER=${1#--filter=}; shift ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage ;;
    -*) echo "compare-builds: unknown option $1" >&2; usage ;;
    *) if [[ -z $OLD_BUILD ]]; then OLD_BUILD=$1
       elif [[ -z $NEW_BUILD ]]; then NEW_BUILD=$1
       else echo "compare-builds: one argument too many: $1" >&2; usage; fi
       shift ;;
  esac
done
[[ -n $OLD_BUILD && -n $NEW_BUILD ]] || usage
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, not '$JOBS'"
if [[ -n $FILTER ]]; then
  [[ x =~ $FILTER ]]; (($? != 2)) || die "--filter: '$FILTER' is not a valid extended regular expression"
fi

# The builds: each must hold an executable client/cairn.
for side in OLD NEW; do
  var=${side}_BUILD
  dir=${!var}
  [[ -d $dir ]] || die "$side build directory '$dir' does not exist"
  dir=$(cd "$dir" && pwd)
  [[ -f $dir/client/cairn ]] || die "$side build '$dir' has no cairn binary ($dir/client/cairn is missing: build the 'cairn' target, e.g. cmake --build $dir)"
  [[ -x $dir/client/cairn ]] || die "$side build: $dir/client/cairn is not executable"
  printf -v "$var" '%s' "$dir"
done
for tool in python3 timeout xargs awk; do
  command -v $tool >/dev/null || die "needs $tool"
done
[[ -d $E2E_DIR/programs ]] || die "no corpus at $E2E_DIR/programs"
[[ -d /dev/shm && -w /dev/shm ]] || die "/dev/shm is not a writable directory"

# The source tree of a build, from its CMakeCache.txt (empty when unknown).
source_dir() {
  sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null | head -n 1
}
OLD_SRC=$(source_dir "$OLD_BUILD")
NEW_SRC=$(source_dir "$NEW_BUILD")
if [[ -z $OLD_SRC || -z $NEW_SRC || $OLD_SRC == "$NEW_SRC" ]]; then
  OLD_SRC="" NEW_SRC=""                     # one tree, or one unknown: no path rewriting at all
fi

# The relocatable variant's arguments, as tests/e2e/CMakeLists.txt registers them; and a check
# that the suite registers no other kind of test than the three this script knows.
CMAKELISTS="$E2E_DIR/CMakeLists.txt"
compare_lines=$(grep -o '"-DCOMPARE_ARGS=[^"]*"' "$CMAKELISTS")
[[ $(grep -c . <<<"$compare_lines") == 1 ]] ||
  die "expected exactly one -DCOMPARE_ARGS=... in $CMAKELISTS (found: ${compare_lines:-none}); update this script"
COMPARE_ARGS=${compare_lines#\"-DCOMPARE_ARGS=}
COMPARE_ARGS=${COMPARE_ARGS%\"}
grep -q 'cairn_e2e_test(e2e-${name}-relocatable ' "$CMAKELISTS" ||
  die "$CMAKELISTS no longer registers e2e-NAME-relocatable as this script expects; update it"
n_calls=$(grep -c '^[[:blank:]]*cairn_e2e_test(' "$CMAKELISTS")
((n_calls == 3)) ||
  die "$CMAKELISTS registers $n_calls kinds of e2e test, this script knows 3 (default, relocatable, CAIRN-VARIANT); update it"
grep -q 'set(command "${CAIRN}" run --json --quiet --output-dir "${out}" ${cairn_args} ${compare_args} "${PROGRAM}")' \
  "$E2E_DIR/run-e2e.cmake" ||
  die "run-e2e.cmake builds its cairn run command differently from what this script reproduces; update it"

# ----------------------------------------------------------------------------------------------
# The work directory: the corpus snapshot, the runs, the results.
WORK=$(mktemp -d /dev/shm/cairn-compare.XXXXXX) || die "cannot create a directory in /dev/shm"
cleanup() {
  if ((KEEP)); then
    echo "kept: $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$WORK/programs" "$WORK/jobs" "$WORK/results" "$WORK/tmp"
cp -p "$E2E_DIR/programs/"*.c "$WORK/programs/" || die "cannot copy the corpus"
{
  printf 'OLD_CAIRN=%q\nNEW_CAIRN=%q\n' "$OLD_BUILD/client/cairn" "$NEW_BUILD/client/cairn"
  printf 'OLD_SRC=%q\nNEW_SRC=%q\n' "$OLD_SRC" "$NEW_SRC"
} >"$WORK/config"

# Splits a header's argument text on blanks, as separate_arguments(UNIX_COMMAND) does for the
# plain words the corpus uses; refuses what it would split differently.
split_args() { # text -> the global array `words`
  if [[ $1 =~ [\"\'\\\$\;] ]]; then
    die "$program: arguments '$1' need shell-style quoting, which this script does not reproduce"
  fi
  read -r -a words <<<"$1"
}

# One job file per run: line 1 the run's name, line 2 whether it is time-limited, then the
# arguments after `cairn run --json --quiet --output-dir OUT`, one a line.
declare -a NAMES PROGRAMS VARIANTS
n=0
add_run() { # name program variant args...
  local name=$1 program=$2 variant=$3
  shift 3
  [[ -z $FILTER || $name =~ $FILTER ]] || return 0
  # args: CAIRN-ARGS (or the variant's), then @@COMPARE@@ and COMPARE_ARGS for relocatable.
  # Arguments after "--" are the program's (run-e2e.cmake: list(FIND cairn_args "--")).
  local -a before=() after=() cairn_args=() compare=()
  local seen=0 a
  while (($#)) && [[ $1 != @@COMPARE@@ ]]; do cairn_args+=("$1"); shift; done
  (($#)) && shift && compare=("$@")
  for a in "${cairn_args[@]}"; do
    if ((seen)); then after+=("$a")
    elif [[ $a == -- ]]; then seen=1
    else before+=("$a"); fi
  done
  local -a cmd=("${before[@]}" "${compare[@]}" "$WORK/programs/$program.c")
  ((${#after[@]})) && cmd+=(-- "${after[@]}")
  # Known nondeterminism (see the header): what this run's comparison leaves out.
  local -a profile=()
  local prev=""
  for a in "${before[@]}" "${compare[@]}"; do
    [[ $a == --max-time || $a == --max-time=* ]] && profile+=(max-time)
    [[ $a == --solver=portfolio || ($prev == --solver && $a == portfolio) ]] && profile+=(portfolio)
    prev=$a
  done
  local IFS=,
  printf '%s\n' "$name" "${profile[*]:--}" "${cmd[@]}" >"$WORK/jobs/$n"
  NAMES[n]=$name PROGRAMS[n]=$program VARIANTS[n]=$variant
  n=$((n + 1))
}

shopt -s nullglob
sources=("$WORK/programs/"*.c)
((${#sources[@]})) || die "no programs in $E2E_DIR/programs"
mapfile -t sources < <(printf '%s\n' "${sources[@]}" | LC_ALL=C sort)
for src in "${sources[@]}"; do
  program=$(basename "$src" .c)
  args_text=""
  while IFS= read -r line; do
    [[ $line =~ ^[[:blank:]]*//[[:blank:]]*CAIRN-ARGS:(.*)$ ]] && args_text+=" ${BASH_REMATCH[1]}"
  done < <(grep -E '^[[:blank:]]*//[[:blank:]]*CAIRN-ARGS:' "$src")
  split_args "$args_text"
  base_args=("${words[@]}")
  add_run "e2e-$program" "$program" default "${base_args[@]}"
  split_args "$COMPARE_ARGS"
  add_run "e2e-$program-relocatable" "$program" relocatable "${base_args[@]}" @@COMPARE@@ "${words[@]}"
  while IFS= read -r line; do
    [[ $line =~ ^[[:blank:]]*//[[:blank:]]*CAIRN-VARIANT:[[:blank:]]*([A-Za-z0-9_-]+)(.*)$ ]] ||
      die "$src: malformed '$line' (want: CAIRN-VARIANT: NAME ARGS...)"
    variant=${BASH_REMATCH[1]}
    split_args "${BASH_REMATCH[2]}"
    add_run "e2e-$program-$variant" "$program" "$variant" "${words[@]}"
  done < <(grep -E '^[[:blank:]]*//[[:blank:]]*CAIRN-VARIANT:' "$src")
done
((n)) || die "no run matches --filter '$FILTER'"

echo "compare-builds: OLD $OLD_BUILD/client/cairn"
echo "compare-builds: NEW $NEW_BUILD/client/cairn"
[[ -n $OLD_SRC ]] && echo "compare-builds: source paths rewritten to <SRC>: $OLD_SRC (OLD), $NEW_SRC (NEW)"
echo "compare-builds: ${#sources[@]} programs, $n runs, $JOBS at a time, in $WORK"
echo "compare-builds: excluded from the comparison: run.log (timestamps, the output directory, solver seconds); time fields of summary.json"

# ----------------------------------------------------------------------------------------------
# Run, OLD and NEW per job, N jobs at a time.
start=$EPOCHREALTIME
export TMPDIR="$WORK/tmp"
unset CAIRN_RUNTIME_BC CAIRN_RUNTIME_INCLUDE
seq 0 $((n - 1)) | xargs -P "$JOBS" -n 1 bash "$SELF" --worker "$WORK"
elapsed=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')

# ----------------------------------------------------------------------------------------------
# The table.
passed=0 failed=0 nondet=0 partial=0
width=10
for ((i = 0; i < n; i++)); do ((${#PROGRAMS[i]} > width)) && width=${#PROGRAMS[i]}; done
printf '%-*s  %-14s  %s\n' "$width" program variant result
for ((i = 0; i < n; i++)); do
  result=$(cat "$WORK/results/$i" 2>/dev/null) || result="no result (the job did not finish)"
  printf '%-*s  %-14s  %s\n' "$width" "${PROGRAMS[i]}" "${VARIANTS[i]}" "$result"
  case $result in
    same) passed=$((passed + 1)) ;;
    same\ \(*) passed=$((passed + 1)) partial=$((partial + 1)) ;;
    nondeterministic*) nondet=$((nondet + 1)); failed=$((failed + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
done
echo "time: ${elapsed} s for $n runs"
((partial)) && echo "$partial passed with known nondeterministic parts not compared (see the table)"
((nondet)) && echo "$nondet nondeterministic (OLD differs from itself; counted as failed)"
echo "$passed passed, $failed failed"
((failed == 0))
