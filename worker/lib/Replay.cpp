#include "cairn/engine/Replay.h"

#include "cairn/engine/ProgramLoader.h"
#include "cairn/ktest/KTest.h"
#include "cairn/support/Subprocess.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

namespace {
// The replay library's exit statuses for a test that does not fit the program.
constexpr int kExitBadTest = 3;
constexpr int kExitDiverged = 4;

bool contains(const std::string &s, const char *what) { return s.find(what) != std::string::npos; }
} // namespace

std::string defaultReplayLibrary() {
  if (const char *env = std::getenv("CAIRN_REPLAY_LIB"))
    return env;
#ifdef CAIRN_REPLAY_LIB_PATH
  return CAIRN_REPLAY_LIB_PATH;
#else
  return {};
#endif
}

std::string ReplayOutcome::describe() const {
  if (diverged)
    return "the run did not follow the test's path";
  if (error)
    return "error: " + type + " (" + kind + ")";
  return "exited normally with status " + std::to_string(exitCode);
}

ReplayOutcome classifyRun(const std::string &out, int exitCode, int signal) {
  ReplayOutcome r;
  r.output = out;
  auto error = [&](const char *type, const char *kind) {
    r.error = true;
    r.type = type;
    r.kind = kind;
    return r;
  };
  if (contains(out, "AddressSanitizer: heap-use-after-free"))
    return error("ptr", "use-after-free");
  if (contains(out, "attempting double-free"))
    return error("free", "double-free");
  if (contains(out, "attempting free on address which was not malloc()-ed") ||
      contains(out, "AddressSanitizer: bad-free"))
    return error("free", "invalid-free");
  if (contains(out, "-buffer-overflow") || contains(out, "-buffer-underflow") ||
      contains(out, "stack-use-after-return") || contains(out, "stack-use-after-scope"))
    return error("ptr", "out-of-bounds");
  if (contains(out, "AddressSanitizer: FPE"))
    return error("div", "division-by-zero");
  if (contains(out, "AddressSanitizer: SEGV")) {
    // "SEGV on unknown address 0x000000000010": a small address is a null dereference.
    size_t at = out.find("unknown address");
    if (at != std::string::npos) {
      unsigned long long a = std::strtoull(out.c_str() + at + 16, nullptr, 16);
      if (a < 4096)
        return error("ptr", "null");
    }
    return error("ptr", "out-of-bounds");
  }
  if (contains(out, "ERROR: klee_abort called"))
    return error("abort", "abort");
  if (size_t at = out.find("ERROR: "); at != std::string::npos && signal == SIGABRT) {
    // klee_report_error: "ERROR: file:line: message [suffix]"; the message may hold brackets.
    std::string line = out.substr(at, out.find('\n', at) - at);
    size_t close = line.rfind(".err]"), open = line.rfind(" [", close);
    std::string type = close != std::string::npos && open != std::string::npos
                           ? line.substr(open + 2, close - open - 2)
                           : "user";
    r.error = true;
    r.type = type;
    r.kind = type == "assert" ? "assertion-failure" : type;
    return r;
  }
  if (signal == SIGFPE)
    return error("div", "division-by-zero");
  if (signal == SIGABRT)
    return error("abort", "abort");
  if (signal)
    return error("exec", "signal");
  // The replay library says so before it exits 3 or 4: a program's own exit(3) is not one.
  if ((exitCode == kExitBadTest || exitCode == kExitDiverged) && contains(out, "cairn-replay: ")) {
    r.diverged = true;
    return r;
  }
  r.exitCode = exitCode;
  return r;
}

ReplayBinary::ReplayBinary(const std::string &program, const ReplayOptions &o)
    : timeout_(o.timeoutSeconds) {
  std::string include = o.runtimeInclude.empty() ? defaultRuntimeInclude() : o.runtimeInclude;
  std::string library = o.replayLibrary.empty() ? defaultReplayLibrary() : o.replayLibrary;
  if (library.empty() || !fs::exists(library))
    throw std::runtime_error("the replay library was not found" +
                             (library.empty() ? std::string() : " at " + library) +
                             " (set CAIRN_REPLAY_LIB, or build the runtime)");
  static unsigned counter = 0;
  binary_ = (fs::temp_directory_path() /
             ("cairn-replay-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
              fs::path(program).stem().string()))
                .string();
  std::vector<std::string> cc = {o.clang, "-g", "-O0", "-fsanitize=address",
                                 "-fno-omit-frame-pointer", "-w"};
  if (!include.empty())
    cc.push_back("-I" + include);
  cc.insert(cc.end(), o.extraCFlags.begin(), o.extraCFlags.end());
  cc.insert(cc.end(), {program, library, "-o", binary_});
  ProcessResult built = runProcess(cc);
  if (!built.succeeded())
    throw std::runtime_error(o.clang + " could not build " + program + " for replay (it " +
                             built.describeEnd() + "):\n" + built.output);
}

ReplayBinary::~ReplayBinary() {
  std::error_code ec;
  fs::remove(binary_, ec);
}

ReplayOutcome ReplayBinary::run(const std::string &ktestPath) const {
  // The program gets the arguments the test was recorded with (argv[0] stays the binary).
  std::vector<std::string> argv = {binary_};
  try {
    KTest test = readKTestFile(ktestPath);
    if (test.args.size() > 1)
      argv.insert(argv.end(), test.args.begin() + 1, test.args.end());
  } catch (const std::exception &) {
    // an unreadable test: the replay library reports it
  }
  ProcessResult run = runProcess(
      argv,
      {"KTEST_FILE=" + fs::absolute(ktestPath).string(),
       "ASAN_OPTIONS=detect_leaks=0:handle_abort=0:allocator_may_return_null=1"},
      timeout_);
  if (run.timedOut) {
    ReplayOutcome r;
    r.error = true;
    r.type = "exec";
    r.kind = "timeout";
    r.output = run.output;
    return r;
  }
  return classifyRun(run.output, run.exitCode, run.signal);
}

} // namespace cairn::engine
