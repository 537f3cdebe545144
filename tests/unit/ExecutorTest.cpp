// The executor on small programs, without the runtime: paths, tests, errors and their lines.
#include "cairn/engine/Executor.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Translate.h"
#include "executor/MemoryCeiling.h"

#include "RunSource.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <set>

using namespace cairn;
using namespace cairn::engine;
using cairn::engine::unit::Recorder;
namespace fs = std::filesystem;

namespace {

const char *kPrelude = "void klee_make_symbolic(void *, unsigned long, const char *);\n"
                       "void klee_assume(unsigned long);\n"
                       "void klee_report_error(const char *, int, const char *, const char *);\n"
                       "void *malloc(unsigned long);\nvoid free(void *);\n";

class ExecutorTest : public ::testing::Test {
protected:
  fs::path dir = fs::temp_directory_path() /
                 ("cairn-exec-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Recorder sink;
  RunStatistics stats;
  bool checkOverflow = false, checkOvershift = false, symbolicFloats = true;
  uint64_t seed = 1;
  double maxTime = 0, solverTimeout = 10;
  uint64_t maxStackFrames = ExecutorOptions{}.maxStackFrames, stackSize = ExecutorOptions{}.stackSizeBytes;
  uint64_t maxMemoryMB = 0;

  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  void run(const std::string &body, SearchStrategy search = SearchStrategy::Dfs) {
    runFile("prog.c", kPrelude + body, search);
  }
  // LLVM IR that clang -O0 does not give.
  void runIR(const std::string &ir) { runFile("prog.ll", ir, SearchStrategy::Dfs); }

  void runFile(const std::string &name, const std::string &text, SearchStrategy search) {
    std::string path = (dir / name).string();
    std::ofstream(path) << text;
    LoadOptions lo;
    lo.linkRuntime = false;
    auto module = loadProgram(path, lo);
    auto program = translateProgram(*module);
    ExecutorOptions eo;
    eo.search = search;
    eo.seed = seed;
    eo.solver.timeoutSeconds = solverTimeout;
    eo.maxTimeSeconds = maxTime;
    eo.checkOverflow = checkOverflow;
    eo.checkOvershift = checkOvershift;
    eo.symbolicFloats = symbolicFloats;
    eo.maxStackFrames = maxStackFrames;
    eo.stackSizeBytes = stackSize;
    eo.maxMemoryMB = maxMemoryMB;
    sink.tests.clear();
    Executor ex(*program, eo, sink);
    stats = ex.run();
  }
};

// Line numbers below count from the prelude's 5 lines.
TEST_F(ExecutorTest, SignFunctionHasThreePaths) {
  run("int sign(int x) { if (x < 0) return -1; if (x == 0) return 0; return 1; }\n"
      "int main(void) { int x; klee_make_symbolic(&x, sizeof x, \"x\"); return sign(x); }\n");
  EXPECT_EQ(stats.pathsCompleted, 3u);
  EXPECT_EQ(stats.tests, 3u);
  ASSERT_EQ(sink.tests.size(), 3u);
  std::set<int> signs;
  for (const TestCase &t : sink.tests) {
    ASSERT_EQ(t.objects.size(), 1u);
    EXPECT_EQ(t.objects[0].first, "x");
    ASSERT_EQ(t.objects[0].second.size(), 4u);
    int32_t x;
    std::memcpy(&x, t.objects[0].second.data(), 4);
    signs.insert(x < 0 ? -1 : x > 0 ? 1 : 0);
  }
  EXPECT_EQ(signs, (std::set<int>{-1, 0, 1}));
}

TEST_F(ExecutorTest, ReportsAnOutOfBoundsWriteWithItsLine) {
  run("int main(void) {\n"
      "  char buf[8]; unsigned i; klee_make_symbolic(&i, sizeof i, \"i\");\n"
      "  if (i <= 8) buf[i] = 1;\n" // line 8: i == 8 is one past the end
      "  return 0;\n}\n");
  ASSERT_EQ(stats.errors.size(), 1u);
  EXPECT_EQ(stats.errors[0].type, "ptr");
  EXPECT_EQ(stats.errors[0].kind, "out-of-bounds");
  EXPECT_EQ(stats.errors[0].line, 8u);
  bool found = false;
  for (const TestCase &t : sink.tests)
    if (t.error) {
      uint32_t i;
      std::memcpy(&i, t.objects[0].second.data(), 4);
      EXPECT_EQ(i, 8u);
      found = true;
    }
  EXPECT_TRUE(found);
}

TEST_F(ExecutorTest, DivisionByZeroAndAssertions) {
  run("int main(void) {\n"
      "  int d; klee_make_symbolic(&d, sizeof d, \"d\");\n"
      "  int q = 100 / d;\n" // line 8
      "  if (q == 50) klee_report_error(\"prog.c\", 9, \"q is 50\", \"assert.err\");\n"
      "  return q;\n}\n");
  std::set<std::string> kinds;
  for (const ErrorReport &e : stats.errors)
    kinds.insert(e.type + "@" + std::to_string(e.line));
  EXPECT_EQ(kinds, (std::set<std::string>{"div@8", "assert@9"}));
}

TEST_F(ExecutorTest, HeapErrors) {
  run("int main(void) {\n"
      "  int c; klee_make_symbolic(&c, sizeof c, \"c\");\n"
      "  char *p = malloc(4);\n"
      "  free(p);\n"
      "  if (c == 1) return p[0];\n"   // line 10: use after free
      "  if (c == 2) free(p);\n"       // line 11: double free
      "  return 0;\n}\n");
  std::set<std::string> kinds;
  for (const ErrorReport &e : stats.errors)
    kinds.insert(e.kind + "@" + std::to_string(e.line));
  EXPECT_EQ(kinds, (std::set<std::string>{"use-after-free@10", "double-free@11"}));
  EXPECT_EQ(stats.pathsCompleted, 3u);
}

TEST_F(ExecutorTest, SymbolicPointersResolveToEveryObject) {
  run("int a[4], b[4];\n"
      "int main(void) {\n"
      "  unsigned i; klee_make_symbolic(&i, sizeof i, \"i\");\n"
      "  int *p = i < 4 ? &a[i] : &b[i - 4];\n"
      "  if (i < 8) { *p = 7; return a[1] + b[2]; }\n"
      "  return 0;\n}\n");
  EXPECT_TRUE(stats.errors.empty());
  EXPECT_EQ(stats.pathsCompleted, 3u); // i < 4; 4 <= i < 8; i >= 8
}

TEST_F(ExecutorTest, SearchersExploreTheSamePaths) {
  const char *prog = "int main(void) { unsigned char b[3]; klee_make_symbolic(b, 3, \"b\");\n"
                     "  int n = 0; for (int i = 0; i < 3; ++i) if (b[i] > 100) n++; return n; }\n";
  for (SearchStrategy s : {SearchStrategy::Dfs, SearchStrategy::Bfs, SearchStrategy::RandomState,
                           SearchStrategy::RandomPath, SearchStrategy::CovNew, SearchStrategy::Default}) {
    sink.tests.clear();
    run(prog, s);
    EXPECT_EQ(stats.pathsCompleted, 8u);
    EXPECT_EQ(sink.tests.size(), 8u);
  }
}

} // namespace

namespace {

TEST_F(ExecutorTest, FloatsOnSymbolicValuesAreSolvedOrConcretised) {
  const std::string program =
      "int main(void) {\n"
      "  double d = 1.5; float f = (float)d * 2.0f; int k = (int)(f + d);\n" // k == 4
      "  int x; klee_make_symbolic(&x, sizeof x, \"x\");\n"
      "  if (k != 4) klee_report_error(\"prog.c\", 9, \"bad float\", \"assert.err\");\n"
      "  if (x > 0) { double y = x; if (y * 0.5 > 1e9) return 2; return 1; }\n" // line 10
      "  return 0;\n}\n";
  // Symbolic (the default): y * 0.5 > 1e9 decided by the solver, both sides found.
  run(program);
  EXPECT_TRUE(stats.errors.empty());
  EXPECT_EQ(stats.pathsCompleted, 3u);
  // Concrete: the path that reaches a float operation on a symbolic x ends in a model error.
  symbolicFloats = false;
  run(program);
  ASSERT_EQ(stats.errors.size(), 1u);
  EXPECT_EQ(stats.errors[0].type, "model");
  EXPECT_EQ(stats.errors[0].line, 10u);
  EXPECT_EQ(stats.pathsCompleted, 2u);
}

} // namespace

namespace {

TEST_F(ExecutorTest, SymbolicFunctionPointersForkPerTarget) {
  run("static int one(void) { return 1; }\n"
      "static int two(void) { return 2; }\n"
      "static int three(void) { return 3; }\n"
      "int (*table[3])(void) = {one, two, three};\n"
      "int main(void) { unsigned i; klee_make_symbolic(&i, sizeof i, \"i\");\n"
      "  if (i >= 3) return 0;\n"
      "  return table[i]();\n}\n");
  EXPECT_TRUE(stats.errors.empty());
  EXPECT_EQ(stats.pathsCompleted, 4u); // i >= 3, and one path per function
}

} // namespace

namespace {

TEST_F(ExecutorTest, VectorsWorkElementByElement) {
  run("typedef int v4 __attribute__((vector_size(16)));\n"
      "int main(void) {\n"
      "  v4 a = {1, 2, 3, 4}; int x; klee_make_symbolic(&x, sizeof x, \"x\");\n"
      "  v4 b = a * 2 + (v4){x, 0, 0, 0};\n"
      "  v4 c = __builtin_shufflevector(b, b, 3, 2, 1, 0);\n"
      "  if (c[0] != 8 || c[3] - x != 2) klee_report_error(\"prog.c\", 10, \"wrong\", \"assert.err\");\n"
      "  if (c[3] > 100) return 1;\n"
      "  return 0;\n}\n");
  EXPECT_TRUE(stats.errors.empty());
  EXPECT_EQ(stats.pathsCompleted, 2u);
}

} // namespace

namespace {

TEST_F(ExecutorTest, OptionalOverflowAndOvershiftChecks) {
  const char *prog = "int main(void) {\n"
                     "  int x; unsigned s; klee_make_symbolic(&x, sizeof x, \"x\");\n"
                     "  klee_make_symbolic(&s, sizeof s, \"s\");\n"
                     "  int y = x + 1;\n"        // line 9: overflows for INT_MAX
                     "  return y >> (s & 63);\n" // line 10: over-shifts for s & 63 >= 32
                     "}\n";
  run(prog);
  EXPECT_TRUE(stats.errors.empty());
  // With the checks on (set through the options below).
  checkOverflow = checkOvershift = true;
  run(prog);
  std::set<std::string> kinds;
  for (const ErrorReport &e : stats.errors)
    kinds.insert(e.kind + "@" + std::to_string(e.line));
  EXPECT_EQ(kinds, (std::set<std::string>{"signed-overflow@9", "overshift@10"}));
}

// llvm.abs(x, true) is poison for INT_MIN: with --check-overflow an error; with the flag false
// none. A switch forks once per distinct target; a case that goes to the default's block is
// the default's: 3 paths (1 or 2, 4, the rest), besides the abs error's.
TEST_F(ExecutorTest, AbsPoisonFlagAndSwitchTargets) {
  const char *ir = "declare void @klee_make_symbolic(ptr, i64, ptr)\n"
                   "declare i32 @llvm.abs.i32(i32, i1)\n"
                   "@name = private constant [2 x i8] c\"x\\00\"\n"
                   "define i32 @main() {\n"
                   "entry:\n"
                   "  %p = alloca i32\n"
                   "  call void @klee_make_symbolic(ptr %p, i64 4, ptr @name)\n"
                   "  %x = load i32, ptr %p\n"
                   "  %a = call i32 @llvm.abs.i32(i32 %x, i1 false)\n"
                   "  %b = call i32 @llvm.abs.i32(i32 %x, i1 true)\n"
                   "  switch i32 %x, label %other [ i32 1, label %one\n"
                   "                                i32 3, label %other\n"
                   "                                i32 2, label %one\n"
                   "                                i32 4, label %four ]\n"
                   "one:\n  ret i32 1\n"
                   "four:\n  ret i32 4\n"
                   "other:\n  ret i32 %a\n"
                   "}\n";
  runIR(ir);
  EXPECT_EQ(stats.pathsCompleted, 3u);
  EXPECT_TRUE(stats.errors.empty());
  checkOverflow = true;
  runIR(ir);
  EXPECT_EQ(stats.pathsCompleted, 4u);
  ASSERT_EQ(stats.errors.size(), 1u);
  EXPECT_EQ(stats.errors[0].type, "overflow");
  EXPECT_EQ(stats.errors[0].kind, "signed-overflow");
}

// Constants clang does not give at -O0: comparisons and selects of globals' addresses (the
// layout puts @b after @a, neither at address 0 nor adjacent), a getelementptr on null whose
// index is itself a constant expression, undef and poison lanes (0), a struct constant in a
// register. Every check holds: one path, no error.
TEST_F(ExecutorTest, ConstantExpressionsFoldFromTheLayout) {
  runIR("declare void @abort()\n"
        "@a = global i32 0\n"
        "@b = global i32 0\n"
        "define i32 @main() {\n"
        "entry:\n"
        "  %c1 = and i1 icmp ugt (ptr @b, ptr @a), icmp ne (ptr @a, ptr getelementptr (i32, ptr @b, i64 1))\n"
        "  %c2 = and i1 %c1, icmp sgt (i64 ptrtoint (ptr @a to i64), i64 0)\n"
        "  %s = add i32 select (i1 icmp eq (ptr @a, ptr @b), i32 1, i32 2), 0\n"
        "  %c3 = icmp eq i32 %s, 2\n"
        "  %n = add i64 ptrtoint (ptr getelementptr (i8, ptr null, i64 mul (i64 ptrtoint (ptr @b to i64), i64 0)) to i64), 12\n"
        "  %c4 = icmp eq i64 %n, 12\n"
        "  %p = alloca <4 x i8>\n"
        "  store <4 x i8> <i8 1, i8 undef, i8 poison, i8 4>, ptr %p\n"
        "  %w = load i32, ptr %p\n"
        "  %c5 = icmp eq i32 %w, 67108865\n"
        "  %st = insertvalue { i32, i64 } { i32 7, i64 undef }, i64 9, 1\n"
        "  %f0 = extractvalue { i32, i64 } %st, 0\n"
        "  %f1 = extractvalue { i32, i64 } %st, 1\n"
        "  %c6 = icmp eq i32 %f0, 7\n"
        "  %c7 = icmp eq i64 %f1, 9\n"
        "  %k1 = and i1 %c2, %c3\n"
        "  %k2 = and i1 %k1, %c4\n"
        "  %k3 = and i1 %k2, %c5\n"
        "  %k4 = and i1 %k3, %c6\n"
        "  %ok = and i1 %k4, %c7\n"
        "  br i1 %ok, label %good, label %bad\n"
        "bad:\n  call void @abort()\n  unreachable\n"
        "good:\n  ret i32 0\n"
        "}\n");
  EXPECT_EQ(stats.pathsCompleted, 1u);
  EXPECT_TRUE(stats.errors.empty());
}

} // namespace

namespace {

// A symbolic index into a constant table of hundreds of entries (ctype tables, lookup tables):
// decided through the backends' comparison tree, not array axioms, so well within the limit.
TEST_F(ExecutorTest, SymbolicReadsOfLargeConstantTables) {
  std::string table = "static const unsigned short table[384] = {";
  for (int i = 0; i < 384; ++i)
    table += std::to_string(i + 1) + ",";
  table += "};\n";
  run(table + "int main(void) { unsigned char c; klee_make_symbolic(&c, 1, \"c\");\n"
              "  if (table[c + 128] & 1) return 1;\n"
              "  if (table[c + 128] > 300) return 2;\n"
              "  return 0;\n}\n");
  EXPECT_EQ(stats.pathsCompleted, 3u);
  EXPECT_EQ(stats.pathsPartial, 0u);
  EXPECT_LT(stats.solverSeconds, 5.0);
}

} // namespace

namespace {

TEST_F(ExecutorTest, OutputFunctionsFormatConcreteValues) {
  run("int printf(const char *, ...);\nint sprintf(char *, const char *, ...);\n"
      "int snprintf(char *, unsigned long, const char *, ...);\nint puts(const char *);\n"
      "int main(void) {\n"
      "  char buf[16], small[4];\n"
      "  sprintf(buf, \"%d-%s\", 42, \"ab\");\n"
      "  int n = snprintf(small, sizeof small, \"%x\", 0xabcdef);\n"
      "  printf(\"%s|%s|%d|%c%%\\n\", buf, small, n, 'z');\n"
      "  puts(\"done\");\n"
      "  char tiny[2]; sprintf(tiny, \"%d\", 12345);\n" // line 16: writes past the end
      "  return 0;\n}\n");
  ASSERT_FALSE(sink.tests.empty());
  EXPECT_NE(sink.tests[0].output.find("42-ab|abc|6|z%\ndone\n"), std::string::npos) << sink.tests[0].output;
  ASSERT_EQ(stats.errors.size(), 1u);
  EXPECT_EQ(stats.errors[0].kind, "out-of-bounds");
  EXPECT_EQ(stats.errors[0].line, 16u);
}

} // namespace

namespace {

TEST_F(ExecutorTest, TheSameSeedExploresInTheSameOrder) {
  const char *prog = "int main(void) { unsigned char b[4]; klee_make_symbolic(b, 4, \"b\");\n"
                     "  int n = 0; for (int i = 0; i < 4; ++i) if (b[i] > 100) n += i; return n; }\n";
  auto order = [&](uint64_t s) {
    sink.tests.clear();
    seed = s;
    run(prog, SearchStrategy::Default);
    std::vector<std::vector<uint8_t>> inputs;
    for (const TestCase &t : sink.tests)
      inputs.push_back(t.path);
    return inputs;
  };
  auto first = order(7), second = order(7), other = order(8);
  EXPECT_EQ(first.size(), 16u);
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other);
}

} // namespace

// A single long query cannot hold a run past --max-time: its time limit is what the run has
// left, and the state it was for ends as a partial path. (Factoring a 64-bit product of two
// 32-bit primes takes the solver far longer than the 60 s it may take per query here.)
TEST_F(ExecutorTest, MaxTimeHoldsAgainstOneLongQuery) {
  maxTime = 2;
  solverTimeout = 60;
  const auto start = std::chrono::steady_clock::now();
  run("int main(void) {\n"
      "  unsigned long long x, y;\n"
      "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
      "  klee_make_symbolic(&y, sizeof y, \"y\");\n"
      "  if (x > 1 && y > 1 && x < 0xffffffffull && y < 0xffffffffull && x * y == 0xd5d8a9f0e1c8aa3dull)\n"
      "    return 1;\n"
      "  return 0;\n"
      "}\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 15) << "the run outlived its limit by more than the slack for loading and tests";
  EXPECT_GE(stats.pathsPartial, 1u);
}

// The native stack's size is what makes a recursion a stack overflow, at the call that needs a
// frame past it; the frame limit only ends the path. Each frame of down() holds 1 KiB: the 65
// frames of down(64) need about 70 KiB.
TEST_F(ExecutorTest, StackSizeMakesTheOverflowAndTheFrameLimitEndsThePath) {
  const std::string program =
      "static int down(int n) { volatile char f[1024]; f[0] = (char)n; return n ? down(n - 1) + f[0] : 0; }\n" // line 6
      "int main(void) { return down(64); }\n";
  run(program); // 8 MiB, 8192 frames
  EXPECT_EQ(stats.pathsCompleted, 1u);
  EXPECT_EQ(stats.pathsPartial, 0u);
  EXPECT_TRUE(stats.errors.empty());

  stackSize = 32 * 1024;
  run(program);
  ASSERT_EQ(stats.errors.size(), 1u);
  EXPECT_EQ(stats.errors[0].type + "/" + stats.errors[0].kind, "exec/stack-overflow");
  EXPECT_EQ(stats.errors[0].line, 6u);
  EXPECT_EQ(stats.pathsPartial, 0u);

  stackSize = ExecutorOptions{}.stackSizeBytes;
  maxStackFrames = 10;
  run(program);
  EXPECT_TRUE(stats.errors.empty());
  EXPECT_EQ(stats.pathsPartial, 1u);
  ASSERT_EQ(sink.tests.size(), 1u);
  EXPECT_TRUE(sink.tests[0].partial);
  EXPECT_NE(sink.tests[0].endReason.find("--max-stack-frames"), std::string::npos) << sink.tests[0].endReason;

  stackSize = 0; // neither limit
  maxStackFrames = 0;
  run(program);
  EXPECT_EQ(stats.pathsCompleted, 1u);
  EXPECT_TRUE(stats.errors.empty());
}

// A dynamic alloca counts when it runs: one larger than what is left of the stack overflows it.
TEST_F(ExecutorTest, AnAllocaPastTheStackOverflowsIt) {
  stackSize = 64 * 1024;
  run("int main(void) {\n"
      "  unsigned n; klee_make_symbolic(&n, sizeof n, \"n\");\n"
      "  if (n != 100000 && n != 16) return 0;\n"
      "  volatile char buf[n];\n" // line 9: 100000 bytes do not fit
      "  buf[0] = 1;\n"
      "  return buf[0];\n}\n");
  std::set<std::string> errors;
  for (const ErrorReport &e : stats.errors)
    errors.insert(e.type + "/" + e.kind + "@" + std::to_string(e.line));
  EXPECT_EQ(errors, (std::set<std::string>{"exec/stack-overflow@9"}));
  EXPECT_EQ(stats.pathsCompleted, 3u); // n == 16, the overflow, neither
}

// --max-memory bounds one path's objects: 512 KiB blocks kept in a 2 MiB limit, the fourth
// does not fit beside the first three and the path's locals, so the path ends there as partial.
TEST_F(ExecutorTest, MaxMemoryEndsAPathThatAloneOutgrowsIt) {
  maxMemoryMB = 2;
  run("int main(void) {\n"
      "  for (int i = 0; i < 8; ++i)\n"
      "    if (!malloc(1 << 19)) return 1;\n"
      "  return 0;\n}\n");
  EXPECT_EQ(stats.pathsCompleted, 0u);
  EXPECT_EQ(stats.pathsPartial, 1u);
  ASSERT_EQ(sink.tests.size(), 1u);
  EXPECT_NE(sink.tests[0].endReason.find("memory limit"), std::string::npos) << sink.tests[0].endReason;
  maxMemoryMB = 5; // all eight fit
  run("int main(void) {\n"
      "  for (int i = 0; i < 8; ++i)\n"
      "    if (!malloc(1 << 19)) return 1;\n"
      "  return 0;\n}\n");
  EXPECT_EQ(stats.pathsCompleted, 1u);
  EXPECT_EQ(stats.pathsPartial, 0u);
}

// The ceiling: a run's heap may pass what it began with by the limit and a quarter of it, at
// least 256 MB.
TEST(MemoryCeiling, IsTheStartTheLimitAndAMargin) {
  EXPECT_EQ(MemoryCeiling::ceilingMB(100, 4000), 100u + 4000 + 1000);
  EXPECT_EQ(MemoryCeiling::ceilingMB(100, 2), 100u + 2 + 256);
  EXPECT_EQ(MemoryCeiling::ceilingMB(0, 1024), 1024u + 256);
}

// Memory no state's objects hold is bounded too: one path squares its value in a loop, so its
// term grows by new nodes every iteration while its objects stay a few bytes. The soft limit
// cannot help (one state, no allocation); the ceiling stops the run and the state ends as a
// partial path with its test. Without the ceiling the loop would run for hours: the time limit
// is there so that the test fails rather than hangs.
TEST_F(ExecutorTest, TheMemoryCeilingStopsARunWhoseTermsOutgrowIt) {
  maxMemoryMB = 1;
  maxTime = 120;
  run("int main(void) {\n"
      "  unsigned x; klee_make_symbolic(&x, sizeof x, \"x\");\n"
      "  for (unsigned i = 0; i < 4000000000u; ++i)\n"
      "    x = x * x + i;\n"
      "  return 0;\n}\n");
  EXPECT_EQ(stats.memoryLimit.runsStopped, 1u);
  EXPECT_EQ(stats.memoryLimit.limitMB, 1u);
  EXPECT_GE(stats.memoryLimit.ceilingMB, 257u);
  EXPECT_EQ(stats.pathsCompleted, 0u);
  EXPECT_EQ(stats.pathsPartial, 1u);
  ASSERT_EQ(sink.tests.size(), 1u);
  EXPECT_NE(sink.tests[0].endReason.find("memory limit reached"), std::string::npos) << sink.tests[0].endReason;
  EXPECT_LT(stats.wallSeconds, 100); // the ceiling, not the time limit
}
