// The `cairn` command line: local runs of the engine, test inspection, and the jobs API client.
#include "CommandLine.h"
#include "CompilerWrapper.h"
#include "JobsCommands.h"
#include "RunOutcome.h"
#include "TestCompOutput.h"

#include "cairn/engine/CoverageReport.h"
#include "cairn/engine/FindingsReports.h"
#include "cairn/engine/EngineFlags.h"
#include "cairn/engine/OutputDirectory.h"
#include "cairn/engine/BranchTransform.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/RecordedBitcode.h"
#include "cairn/engine/Replay.h"
#include "cairn/engine/Translate.h"
#include "cairn/ktest/KTest.h"
#include "cairn/solver/Backends.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <z3.h>

#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace cairn;
using namespace cairn::engine;

namespace {

volatile std::sig_atomic_t interrupted = 0;

// The first Ctrl-C ends the run like a limit (the remaining paths get their tests and the
// summary is written); a second one ends the process at once.
void onInterrupt(int) {
  if (interrupted)
    std::_Exit(130);
  interrupted = 1;
}

// Ends a finished run's process at once. Everything it produced is written by now: each test
// and summary.json as they came, the summary on stdout, run.log. Only the teardown is left,
// and it can be long with nothing to show for it: cvc5 takes tens of seconds to free what a
// hard query left, a portfolio's losing solver runs on until its own time limit before its
// thread can be joined, and a big run's states and caches are freed one by one. (A solver in
// a child process sees its socket close and exits.)
[[noreturn]] void leaveNow(int status) {
  spdlog::default_logger()->flush();
  std::fflush(nullptr);
  std::_Exit(status);
}

const char *kUsage = R"(usage:
  cairn run [options] PROGRAM(.c|.bc|.ll|built with cairn cc) [-- program arguments]
  cairn ktest TEST.ktest
  cairn replay [replay options] PROGRAM (TEST.ktest | OUTPUT_DIR)...
  cairn cc [clang arguments]   a C compiler for a project's build (CC="cairn cc" ./configure
                           && make): clang-15 against musl, static, recording each object's
                           bitcode, so that `cairn run` takes the executables it builds
  cairn extract PROGRAM [-o OUT.bc]   the whole-program bitcode a program built so records
  cairn submit|status|wait|results|cancel ...   (see below)
  cairn --help               (also COMMAND --help)
  cairn --version

run options:
  --output-dir DIR         where tests and summary.json go (default: cairn-out-N next to PROGRAM)
  --search dfs|bfs|random-state|random-path|covnew
  --solver z3|cvc5|portfolio
  --float-solver z3|cvc5|portfolio   for queries with floating-point terms (default: cvc5
                           when --solver is z3, else --solver's); the rest go to --solver
  --solver-pool HOST:PORT[,HOST:PORT...]  send solver queries to a pool (cairn-solver-pool)
  --solver-pool-token-file FILE   the token the pool accepts (its --token-file's)
  --max-time SECONDS       --max-instructions N   --max-forks N   --max-depth N
  --max-solver-time SECONDS
  --max-memory MB          over MB of heap in use, half the states end; once the heap grows
                           past MB and a quarter (at least 256 MB) over what the run began
                           with, the run stops, each state a partial path (default 4000; 0: none)
  --max-stack-frames N     a path this many calls deep ends as partial (default 8192)
  --stack-size BYTES       frames needing more are a stack overflow (default 8 MiB)
  --float symbolic|concrete   symbolic (default): float, double and long double operations
                           on symbolic values are solved exactly (IEEE-754, bit for bit);
                           concrete: such an operand is concretised where the path fixes it
                           and ends the path with a model error where it does not
  --check-overflow         signed overflow of int arithmetic is an error
  --check-overshift        shifting by the value's width or more is an error
  --check-leaks            heap memory still allocated and unreachable at the end is an error
  --check-memcleanup       heap memory still allocated at the end is an error
  --only-new-coverage-tests  a test only for paths covering a new line or branch, and errors
                           (the default under --libc full with --sym-* inputs)
  --all-tests              a test for every path, even there
  --no-native-strings      the runtime's string functions always run as C, never natively
  --seed N                 deterministic exploration for a given seed
  --cflag FLAG             an extra flag for clang-15 (repeatable)
  --entry NAME             the function to start from (default: main)
  --environ FILE           main's envp: the NAME=VALUE lines of FILE (default: cairn's own)
  --libc full|minimal      full: musl, with the POSIX environment model behind its system
                           calls; minimal (default): Cairn's small libc model
  --sym-arg LEN            full libc: one more argument of LEN symbolic characters
  --sym-args MIN MAX LEN   full libc: MIN to MAX more arguments of up to LEN characters
  --sym-stdin SIZE         full libc: SIZE symbolic bytes on stdin
  --sym-files COUNT SIZE   full libc: files A, B, ... of SIZE symbolic bytes each
  --max-fail N             full libc: up to N system calls of a path fail (EIO)
  --file NAME=PATH         full libc: the host file PATH as the read-only file NAME of the
                           working directory (repeatable; read once, never opened by a path)
  --isolate-solver         run the solver in a child process
  --memory-model standard|relocatable   symbolic base addresses for heap objects (relocatable)
  --relocate-stack         relocatable: stack objects get symbolic bases too
  --merge-objects          relocatable: a pointer into several objects gets one segment, no fork
  --context-resolve K      with --merge-objects: try allocation contexts of depth K first
  --no-segment-reuse       with --merge-objects: a fresh segment every time
  --split-objects          relocatable: split large objects accessed at symbolic offsets
  --split-threshold BYTES  objects larger than this are split (default 300)
  --partition-size BYTES   the chunk size, a multiple of 8 (default 128)
  --size-model concrete|symbolic   symbolic: allocations of a symbolic size keep it (bounded)
  --capacity N             symbolic sizes: the largest size (default 100; raised when needed)
  --size-mode eager|lazy|merge|merge-opt   symbolic sizes: fork per size at the allocation,
                           fork on demand, or merge size-dependent loops (default lazy)
  --max-merge-states N     a larger group of states at one merge point is not merged (10000)
  --merge-encoding tree|disjunctive|quantified   how a merge region (klee_open_merge) writes
                           the merged state: from its execution tree (default), from each
                           path's condition, or, for paths that repeat one pattern, with a
                           fresh count k and a bounded universal (quantified: size-dependent
                           loops too)
  --merge-loops-with-calls merge size-dependent loops even when they call functions
  --incremental-merging    inside merge contexts, a fork's side merges at once with a state
                           waiting unrun at the same place with the same live registers and
                           memory (dead stack slots ignored): one state per iteration of
                           disjunctive code instead of a doubling
  --validate-merges        check every quantified merge against its paths and every answer
                           of the quantified solver layer against the core (exit status 3
                           when one is wrong)
  --merge-strategy none|ssm|dsm   merge whole states where query count estimation says the
                           merge costs no extra queries: ssm runs states in topological order
                           and merges at joins, dsm lets --search drive and fast-forwards a
                           state to catch up with a similar one (default none)
  --qce-alpha A            a variable is hot when its extra queries exceed A times all of
                           them; states differing in a hot concrete value stay apart (1e-12)
  --qce-beta B             the chance each side of a branch is feasible (0.8)
  --qce-kappa K            iterations of a loop without a static trip count (10)
  --qce-zeta Z             a query with a merged ite costs Z times one without: above 1,
                           states whose symbolic values differ where queries lie ahead stay
                           apart too (the paper's Eq. 7; default 1, its prototype's Eq. 1)
  --qce-cold-addresses     a variable reaching a memory address ahead is hot only by its
                           count (the paper's Eq. 2); by default it is hot wherever it does
  --qce-cold-floats        a variable reaching a floating-point query ahead is hot only by
                           its count (the paper's Eq. 2); by default it is hot wherever it does
  --dsm-distance D         dsm: block entries of history per state (8)
  --dsm-hold-exits         dsm: a state leaving a loop waits at the exit for the states still
                           inside it (for runs to the end; it costs a partial run coverage)
  --transform-branches off|symbolic|all   meld the two sides of branches on symbolic values
                           (or of all branches) into straight-line code with selects: no
                           fork there; errors of the extra code are checked, never reported
  --transform-in-loops-only  only branches inside loops
  --transform-stored-pointers  also branches whose melded values become pointers stored to
                           memory (left by default: every later access through them would be
                           at a growing symbolic address)
  --no-transform FILE      leave branches on the FILE:LINE lines of FILE alone
  --no-transform-at FILE:LINE   the same for one location (repeatable)
  --no-independence --no-query-cache --no-cex-cache --no-byte-domain --no-disjunct-split
  --array-solver plain|typed   typed: array reads at symbolic indices solved by abstraction
                           and refinement with axioms pruned by element width and index
                           interval (default plain: the core solver's own encoding)
  --array-precheck         decide array queries UNSAT by an integer over-approximation first
  --array-refinement reads|axioms   typed: each read the layer abstracts is tied to its
                           array whole from the first round (default; reads of more than 64
                           positions are left to the core), or given the one pool axiom a
                           wrong model violates, round by round
  --array-bounds propagation|relaxed|integer|glpk|cbc   bound indices by bound
                           propagation (default: no solver call), by optimising over the
                           linear relaxation, or by integer optimisation (tighter, costlier);
                           glpk: the relaxation by GLPK's exact simplex instead of Z3; cbc:
                           the integers by CBC's branch and cut instead of Z3
  --address-aware-cache    relocatable: reuse answers of queries equal up to renaming bases
  --validate-address-cache with --address-aware-cache: check every hit with the solver
  --no-address-cache-models  with --address-aware-cache: sat/unsat answers only, no models
  --json                   print the summary as one JSON object on stdout
  --lcov FILE              line coverage in lcov's format (genhtml, Codecov, GitLab)
  --sarif FILE             the errors in SARIF 2.1.0 (code scanning: GitHub, GitLab, Azure)
  --junit FILE             the errors and paths as a JUnit XML test report
  --test-comp DIR          the tests as a Test-Comp test suite (metadata.xml, a test case per
                           test: its __VERIFIER_nondet_* values); DIR must be new or empty
  --test-comp-spec TEXT    the suite's specification (default: Test-Comp's branch coverage)
  --quiet                  no progress or summary text on stderr
  --log-level debug|info|warn   what run.log in the output directory keeps (info); debug
                           adds the engine's reasoning (merges refused and why, ...)

replay options (those of the run that made the tests):
  --cflag FLAG             an extra flag for clang-15 (repeatable)
  --entry NAME             the run started at NAME rather than main
  --check-overflow         the run checked signed overflow (implied by a recorded overflow error)
  --check-overshift        the run checked shifts (implied by a recorded overshift error)
  --check-leaks            the run checked for lost heap memory (implied by a recorded one)
  --check-memcleanup       the run checked for unfreed heap memory (implied by a recorded one)
  --build-cache DIR        keep the native build in DIR and reuse it while the program (after
                           the preprocessor), these options and the replay library are the same
)";

using client::UsageError;

std::string layerCounters(const SolverLayerStats &l) {
  std::string text;
  for (const auto &[name, value] : l.counters)
    text += ", " + name + " " + std::to_string(value);
  return text;
}

// The environment main(argc, argv, envp) gets: this process's own, as in KLEE, or the
// NAME=VALUE lines of --environ FILE.
std::vector<std::string> programEnvironment(const std::string &file) {
  std::vector<std::string> env;
  if (file.empty()) {
    for (char **e = environ; *e; ++e)
      env.emplace_back(*e);
    return env;
  }
  std::ifstream in(file);
  if (!in)
    throw UsageError("--environ: cannot read " + file);
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty())
      continue;
    if (line.find('=') == std::string::npos || line.front() == '=')
      throw UsageError("--environ: line " + std::to_string(n) + " of " + file + " is not NAME=VALUE");
    env.push_back(line);
  }
  return env;
}

int runCommand(std::vector<std::string> args) {
  ExecutorOptions opts;
  LoadOptions load;
  std::string outputDir, program, environFile, lcovFile, sarifFile, junitFile, testCompDir;
  std::string testCompSpec = kTestCompCoverBranches;
  bool json = false, quiet = false;
  spdlog::level::level_enum logLevel = spdlog::level::info;
  opts.solver.timeoutSeconds = 30;
  EngineFlags engineFlags(opts);

  client::ValuedOptions valued = {
      {"--output-dir", [&](const std::string &v) { outputDir = v; }},
      {"--cflag", [&](const std::string &v) { load.extraCFlags.push_back(v); }},
      {"--entry", [&](const std::string &v) { load.entry = v; }},
      {"--environ", [&](const std::string &v) { environFile = v; }},
      {"--lcov", [&](const std::string &v) { lcovFile = v; }},
      {"--sarif", [&](const std::string &v) { sarifFile = v; }},
      {"--junit", [&](const std::string &v) { junitFile = v; }},
      {"--test-comp", [&](const std::string &v) { testCompDir = v; }},
      {"--test-comp-spec", [&](const std::string &v) { testCompSpec = v; }},
      {"--log-level", [&](const std::string &v) {
         if (v != "debug" && v != "info" && v != "warn")
           throw UsageError("unknown log level '" + v + "' (debug, info or warn)");
         logLevel = spdlog::level::from_str(v);
       }},
  };
  client::FlagOptions flags = {
      {"--json", [&] { json = true; }},
      {"--quiet", [&] { quiet = true; }},
  };
  client::addEngineFlags(engineFlags, valued, flags);
  client::Arguments parsed = client::parseArguments(args, valued, flags);
  if (!parsed.positional.empty()) {
    program = parsed.positional.front();
    opts.programArgs.assign(parsed.positional.begin() + 1, parsed.positional.end());
  }
  opts.programArgs.insert(opts.programArgs.end(), parsed.afterDashes.begin(), parsed.afterDashes.end());
  if (program.empty())
    throw UsageError("cairn run needs a program");
  // A program built with `cairn cc` was compiled against musl: it runs with the full libc.
  if (!engineFlags.given("--libc") && isNativeBinary(program))
    opts.posix.libc = LibcKind::Full;
  engineFlags.settleDefaults();
  if (std::string error = engineFlags.check(); !error.empty())
    throw UsageError(error);
  opts.environment = programEnvironment(environFile);
  load.libc = opts.posix.libc;
  opts.posix.programName = std::filesystem::path(program).stem().string();

  const CoreSolverKind core = opts.solver.core;
  if (opts.solver.poolEndpoints.empty() && !opts.solver.isolateCore &&
      (core == CoreSolverKind::Z3 || core == CoreSolverKind::Portfolio))
    prepareZ3Context(); // while the program compiles and loads
  std::unique_ptr<LoadedModule> module = loadProgram(program, load);
  transformBranches(*module, startFunction(load), opts.transform); // its counts travel with the module
  std::unique_ptr<Program> translated = translateProgram(*module, startFunction(load));
  if (!testCompDir.empty()) { // refused before the run rather than after it
    if (!callsVerifierNondet(*translated))
      throw std::runtime_error("--test-comp: " + program + " calls no __VERIFIER_nondet_* function, and a Test-Comp "
                               "test case holds only their values");
    client::checkTestCompDirectory(testCompDir);
  }
  OutputDirectory out(outputDir.empty() ? OutputDirectory::nextFreeName(program) : outputDir);
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), opts.programArgs.begin(), opts.programArgs.end());
  out.setProgramArgs(std::move(argv));
  out.keepMappedFiles(opts.posix.files);
  // The run log: everything at --log-level (info) in the output directory, warnings also on
  // stderr.
  auto fileSink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(out.path() + "/run.log");
  auto errSink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  errSink->set_level(quiet ? spdlog::level::err : spdlog::level::warn);
  auto logger = std::make_shared<spdlog::logger>("cairn", spdlog::sinks_init_list{fileSink, errSink});
  logger->set_level(logLevel);
  fileSink->set_level(logLevel);
  spdlog::set_default_logger(logger);
  std::string commandLine = "cairn run";
  for (const std::string &a : args)
    commandLine += " " + a;
  spdlog::info("{}", commandLine);
  size_t instructions = 0;
  for (const Function &fn : translated->functions)
    instructions += fn.instrs.size();
  spdlog::info("program {}: {} functions, {} instructions, {} globals", program,
               translated->functions.size(), instructions, translated->globals.size());
  const bool live = !quiet && ::isatty(2);
  if (live)
    opts.onProgress = [](const RunStatistics &s, size_t states) {
      std::fprintf(stderr, "\r\033[Kcairn: %.0fs  %.1fM instr/s  states %zu  paths %llu  tests %llu  "
                           "lines %llu/%llu  solver %.1fs",
                   s.wallSeconds, double(s.instructions) / std::max(s.wallSeconds, 1e-9) / 1e6,
                   states, (unsigned long long)(s.pathsCompleted + s.pathsPartial),
                   (unsigned long long)s.tests, (unsigned long long)s.linesCovered,
                   (unsigned long long)s.linesTotal, s.solverSeconds);
      if (s.sizeBound) // the bound the paths are explored under
        std::fprintf(stderr, "  sizes <= %llu (%llu cut)", (unsigned long long)s.sizeBound->maxCapacity,
                     (unsigned long long)s.sizeBound->pathsCut);
    };
  opts.stopRequested = &interrupted;
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  Executor executor(*translated, opts, out);
  RunStatistics stats = executor.run();
  if (live)
    std::fputs("\r\033[K", stderr);
  std::string summary = out.writeSummary(stats);
  if (!lcovFile.empty())
    client::writeReport(lcovFile, "lcov report", lcovReport(*translated, stats));
  const ReportContext reported{program, out.path(), CAIRN_VERSION};
  if (!sarifFile.empty())
    client::writeReport(sarifFile, "SARIF report",
                        sarifReport({program, std::filesystem::absolute(out.path()).string(), CAIRN_VERSION},
                                    out.errors()) +
                            "\n");
  if (!junitFile.empty())
    client::writeReport(junitFile, "JUnit report", junitReport(reported, stats, out.errors()));
  if (!testCompDir.empty())
    client::writeTestCompSuite(
        testCompDir, testCompMetadata(program, load.entry, translated->pointerBits, testCompSpec, CAIRN_VERSION),
        out.path(), out.errors(), false);
  for (const ErrorReport &e : stats.errors)
    spdlog::info("error {}/{} at {}:{}: {}", e.type, e.kind, e.file, e.line, e.message);
  for (const SolverLayerStats &l : stats.solverLayers)
    spdlog::info("solver layer {}: {} queries, {} answered there, {} unknown, {:.3f} s{}", l.layer,
                 l.queries, l.answered, l.unknown, l.seconds, layerCounters(l));
  spdlog::info("summary {}", summary);
  logger->flush();
  if (json) {
    std::printf("%s\n", summary.c_str());
    std::fflush(stdout); // the summary shows when it is written, not when the process ends
  }
  if (!quiet) {
    std::fprintf(stderr,
                 "cairn: %llu paths completed, %llu partial, %llu tests, %zu errors, %llu "
                 "instructions, %.2f s (solver %.2f s)\ncairn: results in %s\n",
                 (unsigned long long)stats.pathsCompleted, (unsigned long long)stats.pathsPartial,
                 (unsigned long long)stats.tests, stats.errors.size(),
                 (unsigned long long)stats.instructions, stats.wallSeconds, stats.solverSeconds,
                 out.path().c_str());
    if (stats.sizeBound)
      std::fprintf(stderr, "cairn: %s\n", client::sizeBoundNote(*stats.sizeBound).c_str());
    if (std::string note = client::mergingNote(stats.merging); !note.empty())
      std::fprintf(stderr, "cairn: %s\n", note.c_str());
    if (std::string note = client::memoryLimitNote(stats.memoryLimit); !note.empty())
      std::fprintf(stderr, "cairn: %s\n", note.c_str());
    for (const ErrorReport &e : stats.errors)
      std::fprintf(stderr, "cairn: %s:%u: %s (%s/%s)\n", e.file.c_str(), e.line, e.message.c_str(),
                   e.type.c_str(), e.kind.c_str());
  }
  leaveNow(client::failsValidation(stats) ? client::kValidationMismatchExit : 0);
}

int replayCommand(std::vector<std::string> args) {
  namespace fs = std::filesystem;
  ReplayOptions options;
  client::Arguments parsed = client::parseArguments(
      args,
      {{"--cflag", [&](const std::string &v) { options.extraCFlags.push_back(v); }},
       {"--entry", [&](const std::string &v) { options.entry = v; }},
       {"--build-cache", [&](const std::string &v) { options.buildCache = v; }}},
      {{"--check-overflow", [&] { options.checkOverflow = true; }},
       {"--check-overshift", [&] { options.checkOvershift = true; }},
       {"--check-leaks", [&] { options.checkLeaks = true; }},
       {"--check-memcleanup", [&] { options.checkMemcleanup = true; }}});
  std::vector<std::string> positional = std::move(parsed.positional);
  positional.insert(positional.end(), parsed.afterDashes.begin(), parsed.afterDashes.end());
  if (positional.size() < 2)
    throw UsageError("cairn replay takes a program and .ktest files or output directories");
  // A directory's partial paths are left out: a limit ended them, so there is no outcome to
  // reproduce. A partial path's test named on its own is run, and its outcome shown.
  std::vector<std::string> tests;
  size_t partialLeftOut = 0;
  for (size_t i = 1; i < positional.size(); ++i) {
    if (fs::is_directory(positional[i])) {
      std::vector<std::string> found;
      for (const auto &e : fs::directory_iterator(positional[i]))
        if (e.path().extension() == ".ktest")
          found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      for (const std::string &t : found)
        if (readRecordedOutcome(t).partial)
          ++partialLeftOut;
        else
          tests.push_back(t);
    } else {
      readKTestFile(positional[i]); // a clear error for a missing or malformed test, first
      tests.push_back(positional[i]);
    }
  }
  std::vector<RecordedOutcome> recorded;
  for (const std::string &test : tests) {
    recorded.push_back(readRecordedOutcome(test));
    enableChecksOf(options, recorded.back());
  }
  ReplayBinary binary(positional[0], options); // built once for all the tests
  // A program built with cairn cc runs as built: where the engine stopped at its own limit (a
  // `model` error), no breakpoint can stop the native run at that place to compare.
  const bool asBuilt = isNativeBinary(positional[0]);
  size_t failures = 0, compared = 0;
  for (size_t i = 0; i < tests.size(); ++i) {
    ReplayOutcome outcome = binary.run(tests[i], recorded[i]);
    std::string verdict;
    if (recorded[i].partial || (asBuilt && recorded[i].type == "model")) {
      verdict = "not compared";
    } else {
      ++compared;
      bool reproduced = reproduces(outcome, recorded[i]);
      verdict = reproduced ? "reproduced" : "NOT reproduced";
      if (!reproduced) {
        ++failures;
        if (!outcome.output.empty())
          std::fprintf(stderr, "%s", outcome.output.c_str());
      }
    }
    std::printf("%s: %s; recorded %s: %s\n", tests[i].c_str(), outcome.describe().c_str(),
                recorded[i].describe().c_str(), verdict.c_str());
    std::fflush(stdout);
  }
  std::printf("%zu of %zu tests reproduced", compared - failures, compared);
  if (partialLeftOut)
    std::printf(" (%zu tests of partial paths not replayed)", partialLeftOut);
  std::printf("\n");
  return failures ? 1 : 0;
}

int ktestCommand(const std::vector<std::string> &args) {
  if (args.size() != 1)
    throw UsageError("cairn ktest takes one .ktest file");
  KTest k = readKTestFile(args[0]);
  std::fputs(formatKTest(k, args[0]).c_str(), stdout);
  return 0;
}

// `--help` or `-h` among a command's own arguments (not the program's, after `--`).
bool asksForHelp(const std::vector<std::string> &args) {
  for (const std::string &a : args) {
    if (a == "--")
      return false;
    if (a == "--help" || a == "-h")
      return true;
  }
  return false;
}

} // namespace

int main(int argc, char **argv) {
  spdlog::set_level(spdlog::level::warn);
  std::vector<std::string> args(argv + 1, argv + argc);
  if ((args.empty() || args[0] == "--help" || args[0] == "-h") &&
      std::filesystem::path(argv[0]).filename() != "cairn-cc") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    std::fputs(client::kJobsUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::printf("cairn %s (LLVM %s, Z3 %s)\n", CAIRN_VERSION, CAIRN_LLVM_VERSION, Z3_get_full_version());
    return 0;
  }
  // Installed (or linked) as `cairn-cc`, it is the compiler: CMake's CMAKE_C_COMPILER is one file.
  const bool asCompiler = std::filesystem::path(argv[0]).filename() == "cairn-cc";
  std::string command = asCompiler ? "cc" : args[0];
  if (!asCompiler)
    args.erase(args.begin());
  if (command == "cc") { // a compiler: every argument is clang's, --help included
    try {
      return client::ccCommand(args);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "cairn cc: %s\n", e.what());
      return 2;
    }
  }
  if (asksForHelp(args)) {
    const bool jobs = client::isJobsCommand(command);
    if (!jobs && command != "run" && command != "ktest" && command != "replay" && command != "extract") {
      std::fprintf(stderr, "cairn: unknown command '%s'\n%s", command.c_str(), kUsage);
      return 2;
    }
    std::fputs(jobs ? client::kJobsUsage : kUsage, stdout);
    return 0;
  }
  try {
    if (command == "run")
      return runCommand(args);
    if (command == "ktest")
      return ktestCommand(args);
    if (command == "replay")
      return replayCommand(args);
    if (command == "extract")
      return client::extractCommand(args);
    if (client::isJobsCommand(command)) {
      try {
        return client::jobsCommand(command, args);
      } catch (const std::invalid_argument &e) {
        std::fprintf(stderr, "cairn: %s\n%s", e.what(), client::kJobsUsage);
        return 2;
      }
    }
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError &e) {
    std::fprintf(stderr, "cairn: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cairn: %s\n", e.what());
    return 1;
  }
}
