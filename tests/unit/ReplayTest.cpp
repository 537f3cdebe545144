// Replay: how native runs are classified, and a whole round trip from `cairn run`'s engine to a
// native replay of each test.
#include "cairn/engine/Executor.h"
#include "cairn/engine/OutputDirectory.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Replay.h"
#include "cairn/engine/Translate.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

using namespace cairn::engine;
namespace fs = std::filesystem;

namespace {

TEST(ReplayClassify, SanitizerReportsBecomeTheEnginesErrorKinds) {
  auto kindOf = [](const std::string &out, int code, int sig) {
    ReplayOutcome r = classifyRun(out, code, sig);
    return r.error ? r.type + "/" + r.kind : r.diverged ? "diverged" : "exit " + std::to_string(r.exitCode);
  };
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address", 1, 0), "ptr/out-of-bounds");
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: stack-buffer-overflow on", 1, 0), "ptr/out-of-bounds");
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: heap-use-after-free on", 1, 0), "ptr/use-after-free");
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: attempting double-free on", 1, 0), "free/double-free");
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000008", 1, 0), "ptr/null");
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0000001000", 1, 0), "ptr/out-of-bounds");
  EXPECT_EQ(kindOf("ERROR: f.c:9: buf[0] != 'x' [assert.err]\n", 0, SIGABRT), "assert/assertion-failure");
  EXPECT_EQ(kindOf("ERROR: klee_abort called\n", 0, SIGABRT), "abort/abort");
  EXPECT_EQ(kindOf("", 0, SIGABRT), "abort/abort");
  EXPECT_EQ(kindOf("", 0, SIGFPE), "div/division-by-zero");
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: FPE on unknown address", 1, 0), "div/division-by-zero");
  EXPECT_EQ(kindOf("cairn-replay: the run does not follow the test's path\n", 4, 0), "diverged");
  EXPECT_EQ(kindOf("hello\n", 7, 0), "exit 7");
  EXPECT_EQ(kindOf("", 3, 0), "exit 3"); // the program's own status, not the replay library's
}

TEST(ReplayRoundTrip, EveryTestOfARunReproducesNatively) {
  fs::path dir = fs::temp_directory_path() / ("cairn-replay-rt-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string program = (dir / "prog.c").string();
  std::ofstream(program) << "#include \"cairn.h\"\n#include <stdlib.h>\n"
                            "int main(void) {\n"
                            "  int v[4] = {0}; unsigned i; int d;\n"
                            "  klee_make_symbolic(&i, sizeof i, \"i\");\n"
                            "  klee_make_symbolic(&d, sizeof d, \"d\");\n"
                            "  if (i < 5) v[i] = 1;\n"          // i == 4: out of bounds
                            "  if (d > 10) return 100 / (d - 11);\n" // d == 11: division by zero
                            "  klee_assert(d != 3);\n"
                            "  return 0;\n}\n";
  auto module = loadProgram(program, LoadOptions{});
  auto translated = translateProgram(*module);
  OutputDirectory out((dir / "out").string());
  ExecutorOptions options;
  options.search = SearchStrategy::Dfs;
  RunStatistics stats = Executor(*translated, options, out).run();
  ASSERT_EQ(stats.errors.size(), 3u);
  ReplayBinary binary(program, ReplayOptions{});
  size_t errors = 0, tests = 0;
  for (const auto &e : fs::directory_iterator(dir / "out")) {
    if (e.path().extension() != ".ktest")
      continue;
    ++tests;
    ReplayOutcome r = binary.run(e.path().string());
    std::string stem = e.path().stem().string();
    bool hasErr = false;
    for (const char *type : {"ptr", "div", "assert"})
      if (fs::exists(dir / "out" / (stem + "." + type + ".err"))) {
        hasErr = true;
        EXPECT_TRUE(r.error) << stem;
        EXPECT_EQ(r.type, type) << stem << ": " << r.output;
      }
    if (!hasErr) {
      EXPECT_FALSE(r.error || r.diverged) << stem << ": " << r.describe() << "\n" << r.output;
    }
    errors += hasErr;
  }
  EXPECT_EQ(errors, 3u);
  EXPECT_EQ(tests, stats.tests);
  fs::remove_all(dir);
}

} // namespace
