// The `cairn` command line: local runs of the engine and test inspection. (The jobs API client
// commands join it with the service.)
#include "cairn/engine/OutputDirectory.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Replay.h"
#include "cairn/engine/Translate.h"
#include "cairn/ktest/KTest.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

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

const char *kUsage = R"(usage:
  cairn run [options] PROGRAM(.c|.bc|.ll) [-- program arguments]
  cairn ktest TEST.ktest
  cairn replay [--cflag FLAG] PROGRAM (TEST.ktest | OUTPUT_DIR)...
  cairn --help

run options:
  --output-dir DIR         where tests and summary.json go (default: cairn-out-N next to PROGRAM)
  --search dfs|bfs|random-state|random-path|covnew
  --solver z3|cvc5|portfolio
  --max-time SECONDS       --max-instructions N   --max-forks N   --max-depth N
  --max-memory MB          --max-solver-time SECONDS
  --check-overflow         signed overflow of int arithmetic is an error
  --check-overshift        shifting by the value's width or more is an error
  --seed N                 deterministic exploration for a given seed
  --cflag FLAG             an extra flag for clang-15 (repeatable)
  --entry NAME             the function to start from (default: main)
  --isolate-solver         run the solver in a child process
  --no-independence --no-query-cache --no-cex-cache
  --json                   print the summary as one JSON object on stdout
  --quiet                  no progress or summary text on stderr
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

uint64_t parseCount(const std::string &flag, const std::string &v) {
  try {
    size_t used = 0;
    unsigned long long n = std::stoull(v, &used);
    if (used == v.size())
      return n;
  } catch (...) {
  }
  throw UsageError(flag + " needs a whole number, got '" + v + "'");
}

double parseSeconds(const std::string &flag, const std::string &v) {
  try {
    size_t used = 0;
    double d = std::stod(v, &used);
    if (used == v.size() && d >= 0)
      return d;
  } catch (...) {
  }
  throw UsageError(flag + " needs a number of seconds, got '" + v + "'");
}

int runCommand(std::vector<std::string> args) {
  ExecutorOptions opts;
  LoadOptions load;
  std::string outputDir, program;
  bool json = false, quiet = false;
  opts.solver.timeoutSeconds = 30;

  std::map<std::string, std::function<void(const std::string &)>> valued = {
      {"--output-dir", [&](const std::string &v) { outputDir = v; }},
      {"--search", [&](const std::string &v) {
         if (!parseSearchStrategy(v, opts.search))
           throw UsageError("unknown search strategy '" + v + "'");
       }},
      {"--solver", [&](const std::string &v) {
         if (!parseCoreSolverKind(v, opts.solver.core))
           throw UsageError("unknown solver '" + v + "' (z3, cvc5 or portfolio)");
       }},
      {"--max-time", [&](const std::string &v) { opts.maxTimeSeconds = parseSeconds("--max-time", v); }},
      {"--max-instructions", [&](const std::string &v) { opts.maxInstructions = parseCount("--max-instructions", v); }},
      {"--max-forks", [&](const std::string &v) { opts.maxForks = parseCount("--max-forks", v); }},
      {"--max-depth", [&](const std::string &v) { opts.maxDepth = uint32_t(parseCount("--max-depth", v)); }},
      {"--max-memory", [&](const std::string &v) { opts.maxMemoryMB = parseCount("--max-memory", v); }},
      {"--max-solver-time", [&](const std::string &v) { opts.solver.timeoutSeconds = parseSeconds("--max-solver-time", v); }},
      {"--seed", [&](const std::string &v) { opts.seed = parseCount("--seed", v); }},
      {"--cflag", [&](const std::string &v) { load.extraCFlags.push_back(v); }},
      {"--entry", [&](const std::string &v) { load.entry = v; }},
  };
  std::map<std::string, std::function<void()>> flags = {
      {"--json", [&] { json = true; }},
      {"--quiet", [&] { quiet = true; }},
      {"--isolate-solver", [&] { opts.solver.isolateCore = true; }},
      {"--check-overflow", [&] { opts.checkOverflow = true; }},
      {"--check-overshift", [&] { opts.checkOvershift = true; }},
      {"--no-independence", [&] { opts.solver.independence = false; }},
      {"--no-query-cache", [&] { opts.solver.queryCache = false; }},
      {"--no-cex-cache", [&] { opts.solver.cexCache = false; }},
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--") {
      opts.programArgs.assign(args.begin() + long(i) + 1, args.end());
      break;
    }
    std::string value;
    bool hasInlineValue = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      hasInlineValue = true;
    }
    if (auto it = valued.find(a); it != valued.end()) {
      if (!hasInlineValue) {
        if (i + 1 >= args.size())
          throw UsageError(a + " needs a value");
        value = args[++i];
      }
      it->second(value);
    } else if (auto ft = flags.find(a); ft != flags.end() && !hasInlineValue) {
      ft->second();
    } else if (a.rfind("-", 0) == 0) {
      throw UsageError("unknown option '" + a + "'");
    } else if (program.empty()) {
      program = a;
    } else {
      opts.programArgs.push_back(a);
    }
  }
  if (program.empty())
    throw UsageError("cairn run needs a program");

  std::unique_ptr<LoadedModule> module = loadProgram(program, load);
  std::unique_ptr<Program> translated = translateProgram(*module, load.entry);
  OutputDirectory out(outputDir.empty() ? OutputDirectory::nextFreeName(program) : outputDir);
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), opts.programArgs.begin(), opts.programArgs.end());
  out.setProgramArgs(std::move(argv));
  // The run log: everything at info level in the output directory, warnings also on stderr.
  auto fileSink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(out.path() + "/run.log");
  auto errSink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  errSink->set_level(quiet ? spdlog::level::err : spdlog::level::warn);
  auto logger = std::make_shared<spdlog::logger>("cairn", spdlog::sinks_init_list{fileSink, errSink});
  logger->set_level(spdlog::level::info);
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
    };
  opts.stopRequested = &interrupted;
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  Executor executor(*translated, opts, out);
  RunStatistics stats = executor.run();
  if (live)
    std::fputs("\r\033[K", stderr);
  std::string summary = out.writeSummary(stats);
  for (const ErrorReport &e : stats.errors)
    spdlog::info("error {}/{} at {}:{}: {}", e.type, e.kind, e.file, e.line, e.message);
  for (const SolverLayerStats &l : stats.solverLayers)
    spdlog::info("solver layer {}: {} queries, {} answered there, {} unknown, {:.3f} s", l.layer,
                 l.queries, l.answered, l.unknown, l.seconds);
  spdlog::info("summary {}", summary);
  logger->flush();
  if (json)
    std::printf("%s\n", summary.c_str());
  if (!quiet) {
    std::fprintf(stderr,
                 "cairn: %llu paths completed, %llu partial, %llu tests, %zu errors, %llu "
                 "instructions, %.2f s (solver %.2f s)\ncairn: results in %s\n",
                 (unsigned long long)stats.pathsCompleted, (unsigned long long)stats.pathsPartial,
                 (unsigned long long)stats.tests, stats.errors.size(),
                 (unsigned long long)stats.instructions, stats.wallSeconds, stats.solverSeconds,
                 out.path().c_str());
    for (const ErrorReport &e : stats.errors)
      std::fprintf(stderr, "cairn: %s:%u: %s (%s/%s)\n", e.file.c_str(), e.line, e.message.c_str(),
                   e.type.c_str(), e.kind.c_str());
  }
  return 0;
}

// The recorded outcome of a test: the type and kind in its .err file, if it has one.
std::pair<std::string, std::string> recordedError(const std::string &ktest) {
  namespace fs = std::filesystem;
  fs::path p(ktest);
  std::string stem = p.stem().string();
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(p.parent_path().empty() ? "." : p.parent_path(), ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(stem + ".", 0) != 0 || entry.path().extension() != ".err")
      continue;
    std::ifstream in(entry.path());
    std::string line, type, kind;
    while (std::getline(in, line)) {
      if (line.rfind("Type: ", 0) == 0)
        type = line.substr(6);
      if (line.rfind("Kind: ", 0) == 0)
        kind = line.substr(6);
    }
    return {type, kind};
  }
  return {};
}

int replayCommand(std::vector<std::string> args) {
  namespace fs = std::filesystem;
  ReplayOptions options;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--cflag") {
      if (i + 1 >= args.size())
        throw UsageError("--cflag needs a value");
      options.extraCFlags.push_back(args[++i]);
    } else if (args[i].rfind("-", 0) == 0) {
      throw UsageError("unknown option '" + args[i] + "'");
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.size() < 2)
    throw UsageError("cairn replay takes a program and .ktest files or output directories");
  std::vector<std::string> tests;
  for (size_t i = 1; i < positional.size(); ++i) {
    if (fs::is_directory(positional[i])) {
      std::vector<std::string> found;
      for (const auto &e : fs::directory_iterator(positional[i]))
        if (e.path().extension() == ".ktest")
          found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      tests.insert(tests.end(), found.begin(), found.end());
    } else {
      readKTestFile(positional[i]); // a clear error for a missing or malformed test, first
      tests.push_back(positional[i]);
    }
  }
  ReplayBinary binary(positional[0], options); // built once for all the tests
  size_t failures = 0;
  for (const std::string &test : tests) {
    ReplayOutcome outcome = binary.run(test);
    auto [type, kind] = recordedError(test);
    bool reproduced = type.empty() ? !outcome.error && !outcome.diverged
                                   : outcome.error && outcome.type == type && outcome.kind == kind;
    std::printf("%s: %s; recorded %s: %s\n", test.c_str(), outcome.describe().c_str(),
                type.empty() ? "no error" : (type + " (" + kind + ")").c_str(),
                reproduced ? "reproduced" : "NOT reproduced");
    if (!reproduced) {
      ++failures;
      if (!outcome.output.empty())
        std::fprintf(stderr, "%s", outcome.output.c_str());
    }
  }
  if (tests.size() > 1)
    std::printf("%zu of %zu tests reproduced\n", tests.size() - failures, tests.size());
  return failures ? 1 : 0;
}

int ktestCommand(const std::vector<std::string> &args) {
  if (args.size() != 1)
    throw UsageError("cairn ktest takes one .ktest file");
  KTest k = readKTestFile(args[0]);
  std::fputs(formatKTest(k, args[0]).c_str(), stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  spdlog::set_level(spdlog::level::warn);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "run")
      return runCommand(args);
    if (command == "ktest")
      return ktestCommand(args);
    if (command == "replay")
      return replayCommand(args);
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError &e) {
    std::fprintf(stderr, "cairn: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cairn: %s\n", e.what());
    return 1;
  }
}
