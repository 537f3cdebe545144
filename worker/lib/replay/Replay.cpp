// Running a replay binary on one test, and reading how the run ended in the engine's terms.
#include "cairn/engine/Replay.h"

#include "replay/PosixTestEnvironment.h"
#include "replay/ReplayBuild.h"
#include "replay/ReplayBuildCache.h"
#include "replay/ReplayLineTable.h"

#include "cairn/engine/OutputDirectory.h"
#include "cairn/engine/RecordedBitcode.h"
#include "cairn/ktest/KTest.h"
#include "cairn/support/Subprocess.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace cairn::engine {

namespace {
// The replay library's exit statuses (runtime/replay/replay.h).
constexpr int kExitBadTest = 3;
constexpr int kExitDiverged = 4;
constexpr int kExitError = 5;
constexpr int kExitStopped = 6;
// The engine's null page: an access below it is a null dereference.
constexpr unsigned long long kNullPage = 4096;

bool contains(const std::string &s, const char *what) { return s.find(what) != std::string::npos; }

// What follows the first `prefix` up to the end of its line, if the output holds one. (Not only
// at a line's start: the program may have printed half a line before.)
bool lineAfter(const std::string &out, const std::string &prefix, std::string &rest) {
  size_t at = out.find(prefix);
  if (at == std::string::npos)
    return false;
  at += prefix.size();
  rest = out.substr(at, out.find('\n', at) - at);
  return true;
}

// A memory fault as runtime/replay/faults.c describes it ("signal=11 code=2 address=0x...
// pc=0x... sp-mapping=rw-p access=write mapping=r--p"), named as the engine names the access.
std::pair<const char *, const char *> classifyFault(const std::string &facts) {
  std::map<std::string, std::string> f;
  std::istringstream in(facts);
  for (std::string field; in >> field;)
    if (size_t eq = field.find('='); eq != std::string::npos)
      f[field.substr(0, eq)] = field.substr(eq + 1);
  unsigned long long address = std::strtoull(f["address"].c_str(), nullptr, 16);
  // The processor faulted fetching the instruction at the address: a call went there.
  if (!f["pc"].empty() && f["pc"] == f["address"])
    return {"ptr", "invalid-function-pointer"};
  // Readable, neither writable nor executable: constant data (string literals, const globals).
  const std::string &m = f["mapping"];
  if (f["access"] == "write" && m.size() == 4 && m[0] == 'r' && m[1] == '-' && m[2] == '-')
    return {"ptr", "read-only"};
  if (address < kNullPage)
    return {"ptr", "null"};
  // The stack pointer itself is in no mapping: the stack grew past its limit. AddressSanitizer
  // names that a stack overflow only when the address is within 64 KiB of the pointer, and a
  // big frame's locals lie further (where ASLR put the stack decides which it reports).
  if (f["sp-mapping"] == "none")
    return {"exec", "stack-overflow"};
  return {"ptr", "out-of-bounds"};
}
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
  if (stopped)
    return "reached the place where the analysis stopped";
  if (error)
    return "error: " + type + " (" + kind + ")";
  return "exited normally with status " + std::to_string(exitCode);
}

std::string RecordedOutcome::describe() const {
  if (partial)
    return "a partial path";
  if (type.empty())
    return exitStatus ? "exit status " + std::to_string(*exitStatus) +
                            (standardOutput.empty() ? "" : " and " + std::to_string(standardOutput.size()) + " bytes of output")
                      : "no error";
  return type + " (" + kind + ")" + (line ? " at " + file + ":" + std::to_string(line) : "");
}

RecordedOutcome readRecordedOutcome(const std::string &ktestPath) {
  RecordedOutcome r;
  fs::path p(ktestPath);
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::string stem = p.stem().string();
  std::error_code ec;
  r.partial = fs::exists(dir / (stem + ".early"), ec);
  if (std::ifstream exit(dir / (stem + ".exit")); exit) {
    int status = 0;
    if (exit >> status)
      r.exitStatus = status;
    std::ifstream out(dir / (stem + ".stdout"), std::ios::binary);
    r.standardOutput.assign(std::istreambuf_iterator<char>(out), std::istreambuf_iterator<char>());
  }
  for (const auto &entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(stem + ".", 0) != 0 || entry.path().extension() != ".err")
      continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("Type: ", 0) == 0)
        r.type = line.substr(6);
      else if (line.rfind("Kind: ", 0) == 0)
        r.kind = line.substr(6);
      else if (line.rfind("File: ", 0) == 0)
        r.file = line.substr(6);
      else if (line.rfind("Line: ", 0) == 0)
        r.line = unsigned(std::strtoul(line.c_str() + 6, nullptr, 10));
    }
    break;
  }
  return r;
}

bool reproduces(const ReplayOutcome &outcome, const RecordedOutcome &recorded) {
  if (recorded.partial)
    return false;
  if (recorded.type == "model")
    return outcome.stopped;
  if (recorded.type.empty())
    return !outcome.error && !outcome.diverged && !outcome.stopped &&
           (!recorded.exitStatus ||
            (outcome.exitCode == *recorded.exitStatus && outcome.standardOutput == recorded.standardOutput));
  return outcome.error && outcome.type == recorded.type && outcome.kind == recorded.kind;
}

void enableChecksOf(ReplayOptions &options, const RecordedOutcome &recorded) {
  if (recorded.type == "leak") {
    if (recorded.kind == "unreachable-memory")
      options.checkLeaks = true;
    if (recorded.kind == "unfreed-memory")
      options.checkMemcleanup = true;
    return;
  }
  if (recorded.type != "overflow")
    return;
  if (recorded.kind == "signed-overflow")
    options.checkOverflow = true;
  if (recorded.kind == "overshift")
    options.checkOvershift = true;
}

ReplayOutcome classifyRun(const std::string &out, int exitCode, int signal) {
  ReplayOutcome r;
  r.output = out;
  auto error = [&](const std::string &type, const std::string &kind) {
    r.error = true;
    r.type = type;
    r.kind = kind;
    return r;
  };
  std::string rest;
  // The replay library's own verdicts come with its exit statuses: a program that prints the
  // same words is not taken for one.
  if (exitCode == kExitError && lineAfter(out, "cairn-replay: error ", rest)) {
    std::istringstream words(rest);
    std::string type, kind;
    words >> type >> kind;
    if (!kind.empty() && kind.back() == ':')
      kind.pop_back();
    return error(type, kind);
  }
  if (exitCode == kExitStopped && lineAfter(out, "cairn-replay: stopped at ", rest)) {
    r.stopped = true;
    return r;
  }
  // AddressSanitizer tells a stack overflow from other faults; the engine's call stack has a
  // depth limit instead, reported as this error.
  if (contains(out, "AddressSanitizer: stack-overflow"))
    return error("exec", "stack-overflow");
  if (lineAfter(out, "cairn-replay: fault ", rest)) {
    auto [type, kind] = classifyFault(rest);
    return error(type, kind);
  }
  // UndefinedBehaviorSanitizer, with the checks the build enabled (ReplayBuild.cpp).
  if (contains(out, "runtime error: signed integer overflow") ||
      contains(out, "runtime error: negation of") || contains(out, "runtime error: division of"))
    return error("overflow", "signed-overflow");
  if (contains(out, "runtime error: shift exponent"))
    return error("overflow", "overshift");
  if (contains(out, "runtime error: execution reached an unreachable program point"))
    return error("exec", "unreachable");
  if (contains(out, "AddressSanitizer: heap-use-after-free"))
    return error("ptr", "use-after-free");
  if (contains(out, "attempting double-free"))
    return error("free", "double-free");
  if (contains(out, "attempting free on address which was not malloc()-ed") ||
      contains(out, "AddressSanitizer: bad-free"))
    return error("free", "invalid-free");
  // use-after-poison: the replay library poisons blocks of no bytes (runtime/replay/heap.c).
  if (contains(out, "-buffer-overflow") || contains(out, "-buffer-underflow") ||
      contains(out, "stack-use-after-return") || contains(out, "stack-use-after-scope") ||
      contains(out, "AddressSanitizer: use-after-poison"))
    return error("ptr", "out-of-bounds");
  if (contains(out, "AddressSanitizer: FPE"))
    return error("div", "division-by-zero");
  if (contains(out, "AddressSanitizer: SEGV")) {
    // "SEGV on unknown address 0x000000000010": a small address is a null dereference.
    size_t at = out.find("unknown address");
    if (at != std::string::npos) {
      unsigned long long a = std::strtoull(out.c_str() + at + 16, nullptr, 16);
      if (a < kNullPage)
        return error("ptr", "null");
    }
    return error("ptr", "out-of-bounds");
  }
  // LeakSanitizer's own report, should its check at exit run (the replay library's comes first).
  if (contains(out, "ERROR: LeakSanitizer: detected memory leaks"))
    return error("leak", "unreachable-memory");
  if (contains(out, "ERROR: klee_abort called"))
    return error("abort", "abort");
  if (size_t at = out.find("ERROR: "); at != std::string::npos && signal == SIGABRT) {
    // klee_report_error: "ERROR: file:line: message [suffix]"; the message may hold brackets.
    std::string line = out.substr(at, out.find('\n', at) - at);
    size_t close = line.rfind(".err]"), open = line.rfind(" [", close);
    std::string type = close != std::string::npos && open != std::string::npos
                           ? line.substr(open + 2, close - open - 2)
                           : "user";
    return error(type, type == "assert" ? "assertion-failure" : type);
  }
  if (signal == SIGFPE)
    return error("div", "division-by-zero");
  // llvm.trap (__builtin_trap) is an undefined instruction on x86-64; the engine ends the path
  // with abort's error, as KLEE does.
  if (signal == SIGABRT || signal == SIGILL)
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
    : timeout_(o.timeoutSeconds), checkLeaks_(o.checkLeaks), checkMemcleanup_(o.checkMemcleanup) {
  static unsigned counter = 0;
  dir_ = (fs::temp_directory_path() / ("cairn-replay-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(counter++)))
             .string();
  fs::remove_all(dir_);
  fs::create_directories(dir_);
  // A program built with `cairn cc` is replayed as it is: it was built natively already (against
  // musl, which the sanitizers do not support), and its tests come from the POSIX model.
  if (isNativeBinary(program)) {
    binary_ = fs::absolute(program).string();
    asBuilt_ = true;
    return;
  }
  try {
    ReplayBuild build = o.buildCache.empty() ? buildReplayBinary(program, o, dir_)
                                             : cachedReplayBuild(program, o, o.buildCache, dir_);
    binary_ = build.binary;
    externals_ = build.externals;
  } catch (...) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    throw;
  }
}

ReplayBinary::~ReplayBinary() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
  if (!filesDir_.empty())
    fs::remove_all(filesDir_, ec);
}

// Where a POSIX test's working directory and stdin go: in memory (/dev/shm) where the machine has
// it, as the model's file system is. A disk's file system has limits the model does not (ext4
// refuses offsets past 16 TiB: `tail -c +41T` seeks there) and costs a disk write per file.
std::string ReplayBinary::filesDirectory() const {
  if (!filesDir_.empty())
    return filesDir_;
  std::error_code ec;
  const fs::path shm = "/dev/shm";
  if (fs::is_directory(shm, ec) && ::access(shm.c_str(), W_OK) == 0) {
    fs::path dir = shm / (fs::path(dir_).filename().string() + "-files");
    if (fs::create_directories(dir, ec) || fs::is_directory(dir, ec))
      return filesDir_ = dir.string();
  }
  return filesDir_ = dir_;
}

ReplayOutcome ReplayBinary::run(const std::string &ktestPath, const RecordedOutcome &recorded) const {
  // The program gets the arguments the test was recorded with (argv[0] stays the binary). A
  // test of the POSIX model gets its symbolic arguments, stdin and files too, and its stdout is
  // kept apart to compare.
  std::vector<std::string> argv = {binary_};
  std::unique_ptr<PosixTestEnvironment> posix;
  ProcessOptions how;
  try {
    KTest test = readKTestFile(ktestPath);
    if (isPosixTest(test)) {
      posix = std::make_unique<PosixTestEnvironment>(
          test, filesDirectory(), (fs::path(ktestPath).parent_path() / kMappedFilesDirectory).string());
      argv.insert(argv.end(), posix->arguments().begin(), posix->arguments().end());
      how.argv0 = posix->programName();
      how.workingDirectory = posix->workingDirectory();
      how.standardInput = posix->standardInput();
      how.separateOutput = true;
      how.unprivileged = true;
      // Built without AddressSanitizer's allocator, whose max_allocation_size_mb does it for the
      // others: an allocation past the engine's 2 GiB gets NULL here too (give or take what the
      // process holds already, hence the headroom).
      if (asBuilt_)
        how.addressSpaceLimit = (uint64_t(2) << 30) + (uint64_t(256) << 20);
    } else if (test.args.size() > 1) {
      argv.insert(argv.end(), test.args.begin() + 1, test.args.end());
    }
  } catch (const std::exception &) {
    // an unreadable test: the replay library reports it
  }
  // malloc of more than 2^31 bytes returns NULL, as on the engine's huge-size path. Leaks are
  // looked for by the replay library at the program's end (runtime/replay/exitchecks.c), not
  // by LeakSanitizer's own check after everything else.
  std::string asan = "ASAN_OPTIONS=handle_abort=0:allocator_may_return_null=1:max_allocation_size_mb=2048";
  asan += checkLeaks_ ? ":detect_leaks=1:leak_check_at_exit=0" : ":detect_leaks=0";
  std::vector<std::string> env = {"KTEST_FILE=" + fs::absolute(ktestPath).string(), asan};
  if (checkLeaks_)
    env.push_back("CAIRN_REPLAY_CHECK_LEAKS=1");
  if (checkMemcleanup_)
    env.push_back("CAIRN_REPLAY_CHECK_MEMCLEANUP=1");
  std::string note;
  if (recorded.type == "model" && !recorded.partial) {
    std::string place = recorded.file + ":" + std::to_string(recorded.line);
    std::vector<uint64_t> addresses = lineAddresses(binary_, recorded.file, recorded.line);
    if (addresses.empty()) {
      note = "cairn-replay: no machine code at " + place + " in the native build\n";
    } else {
      std::ostringstream list;
      list << std::hex;
      for (size_t i = 0; i < addresses.size(); ++i)
        list << (i ? "," : "") << addresses[i];
      env.push_back("CAIRN_REPLAY_STOP_ADDRESSES=" + list.str());
      env.push_back("CAIRN_REPLAY_STOP_AT=" + place);
    }
  }
  ProcessResult run = runProcess(argv, env, timeout_, how);
  if (run.timedOut) {
    ReplayOutcome r;
    r.error = true;
    r.type = "exec";
    r.kind = "timeout";
    r.output = note + run.output;
    return r;
  }
  ReplayOutcome r = classifyRun(run.output, run.exitCode, run.signal);
  r.output = note + r.output;
  r.standardOutput = std::move(run.standardOutput);
  return r;
}

} // namespace cairn::engine
