// Replay: how native runs are classified and compared with the recorded outcome, and whole
// round trips from `cairn run`'s engine to a native replay of each test.
#include "cairn/engine/Executor.h"
#include "cairn/engine/OutputDirectory.h"
#include "cairn/engine/ProgramLoader.h"
#include "cairn/engine/Replay.h"
#include "cairn/engine/Translate.h"

// The replay build's internals (worker/lib): linker output and line table lookups.
#include "replay/ReplayBuild.h"
#include "replay/ReplayLineTable.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

using namespace cairn::engine;
namespace fs = std::filesystem;

namespace {

// A recorded error: what a test's .err file says, no exit status or output.
RecordedOutcome errorAt(std::string type, std::string kind, std::string file, unsigned line) {
  RecordedOutcome o;
  o.type = std::move(type);
  o.kind = std::move(kind);
  o.file = std::move(file);
  o.line = line;
  return o;
}

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
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: stack-overflow on address 0x7ffd", 1, 0), "exec/stack-overflow");
  // A block of no bytes is poisoned by the replay library (runtime/replay/heap.c).
  EXPECT_EQ(kindOf("==1==ERROR: AddressSanitizer: use-after-poison on address", 1, 0), "ptr/out-of-bounds");
  EXPECT_EQ(kindOf("ERROR: f.c:3: invalid klee_range: start >= end [user.err]\n", 0, SIGABRT), "user/user");
  // __builtin_trap is ud2: the engine's abort.
  EXPECT_EQ(kindOf("", 0, SIGILL), "abort/abort");
  EXPECT_EQ(kindOf("", 0, SIGSEGV), "exec/signal");
}

TEST(ReplayClassify, UndefinedBehaviorSanitizerReportsBecomeTheEnginesChecks) {
  auto kindOf = [](const std::string &out) {
    ReplayOutcome r = classifyRun(out, 1, 0);
    return r.error ? r.type + "/" + r.kind : "exit " + std::to_string(r.exitCode);
  };
  EXPECT_EQ(kindOf("f.c:14:13: runtime error: signed integer overflow: 2147483647 + 1 cannot be "
                   "represented in type 'int'\n"),
            "overflow/signed-overflow");
  EXPECT_EQ(kindOf("f.c:6:22: runtime error: negation of -2147483648 cannot be represented in type "
                   "'int'; cast to an unsigned type to negate this value to itself\n"),
            "overflow/signed-overflow");
  EXPECT_EQ(kindOf("f.c:7:3: runtime error: division of -2147483648 by -1 cannot be represented in "
                   "type 'int'\n"),
            "overflow/signed-overflow");
  EXPECT_EQ(kindOf("f.c:19:13: runtime error: shift exponent 40 is too large for 32-bit type 'int'\n"),
            "overflow/overshift");
  EXPECT_EQ(kindOf("f.c:14:5: runtime error: execution reached an unreachable program point\n"),
            "exec/unreachable");
  EXPECT_EQ(kindOf("no report\n"), "exit 1");
}

TEST(ReplayClassify, MemoryFaultsAreNamedByWhatFaulted) {
  auto kindOf = [](const std::string &facts) {
    ReplayOutcome r = classifyRun("cairn-replay: fault " + facts +
                                      "\n==1==ERROR: AddressSanitizer: SEGV on unknown address\n",
                                  1, 0);
    return r.error ? r.type + "/" + r.kind : "no error";
  };
  // Writes to constant data; a write elsewhere that faults is out of bounds.
  EXPECT_EQ(kindOf("signal=11 code=2 address=0x5560dbb3f6e0 pc=0x5560dbb2bfbe access=write mapping=r--p"),
            "ptr/read-only");
  EXPECT_EQ(kindOf("signal=11 code=2 address=0x5560dbb3f6e0 pc=0x5560dbb2bfbe access=write mapping=r-xp"),
            "ptr/out-of-bounds");
  EXPECT_EQ(kindOf("signal=11 code=2 address=0x5560dbb3f6e0 pc=0x5560dbb2bfbe access=read mapping=r--p"),
            "ptr/out-of-bounds");
  EXPECT_EQ(kindOf("signal=11 code=1 address=0x7f0000001000 pc=0x5560dbb2bfbe access=write mapping=none"),
            "ptr/out-of-bounds");
  // Calls to data, to a small integer and to null: the fetch of the instruction faulted.
  EXPECT_EQ(kindOf("signal=11 code=2 address=0x55c8e7e2cc80 pc=0x55c8e7e2cc80 access=read mapping=rw-p"),
            "ptr/invalid-function-pointer");
  EXPECT_EQ(kindOf("signal=11 code=1 address=0x1234 pc=0x1234 access=read mapping=none"),
            "ptr/invalid-function-pointer");
  EXPECT_EQ(kindOf("signal=11 code=1 address=0x0 pc=0x0 access=read mapping=none"),
            "ptr/invalid-function-pointer");
  EXPECT_EQ(kindOf("signal=11 code=1 address=0x10 pc=0x55c8e7e2cc80 access=read mapping=none"),
            "ptr/null");
  // AddressSanitizer knows a stack overflow, which faults like any other access.
  ReplayOutcome overflow = classifyRun(
      "cairn-replay: fault signal=11 code=1 address=0x7fff01e6aff8 pc=0x55c4e1e8b111 access=write "
      "mapping=none\n==1==ERROR: AddressSanitizer: stack-overflow on address 0x7fff01e6aff8\n",
      1, 0);
  EXPECT_EQ(overflow.type + "/" + overflow.kind, "exec/stack-overflow");
  // A big frame's local written past the stack's end, further from the stack pointer than
  // AddressSanitizer looks: "SEGV on unknown address", but the stack pointer is in no mapping.
  EXPECT_EQ(kindOf("signal=11 code=1 address=0x7ffebe7bffe8 pc=0x55f01bc8d12f sp-mapping=none access=write "
                   "mapping=none"),
            "exec/stack-overflow");
  EXPECT_EQ(kindOf("signal=11 code=1 address=0x7ffebe7bffe8 pc=0x55f01bc8d12f sp-mapping=rw-p access=write "
                   "mapping=none"),
            "ptr/out-of-bounds");
}

TEST(ReplayClassify, TheReplayLibrarysVerdictsNeedItsExitStatus) {
  ReplayOutcome user = classifyRun("out\ncairn-replay: error user assume: klee_assume: the condition is false\n", 5, 0);
  EXPECT_TRUE(user.error);
  EXPECT_EQ(user.type + "/" + user.kind, "user/assume");
  ReplayOutcome external = classifyRun(
      "cairn-replay: error external external-call: call to function 'mystery', which is neither "
      "defined nor modelled\n",
      5, 0);
  EXPECT_EQ(external.type + "/" + external.kind, "external/external-call");
  EXPECT_TRUE(classifyRun("cairn-replay: stopped at f.c:13\n", 6, 0).stopped);
  // The checks at the program's end (runtime/replay/exitchecks.c), after LeakSanitizer's report.
  ReplayOutcome leak = classifyRun(
      "==1==ERROR: LeakSanitizer: detected memory leaks\n\nDirect leak of 8 byte(s)\n"
      "cairn-replay: error leak unreachable-memory: LeakSanitizer found heap memory unreachable "
      "at the program's end\n",
      5, 0);
  EXPECT_EQ(leak.type + "/" + leak.kind, "leak/unreachable-memory");
  ReplayOutcome unfreed = classifyRun(
      "cairn-replay: error leak unfreed-memory: 2 heap blocks still allocated at the program's end\n", 5, 0);
  EXPECT_EQ(unfreed.type + "/" + unfreed.kind, "leak/unfreed-memory");
  // LeakSanitizer's own check at exit, should it run, is the same error.
  ReplayOutcome own = classifyRun("==1==ERROR: LeakSanitizer: detected memory leaks\n", 23, 0);
  EXPECT_EQ(own.type + "/" + own.kind, "leak/unreachable-memory");
  // The program printing the same words and exiting with another status is just that.
  ReplayOutcome printed = classifyRun("cairn-replay: error user assume: x\ncairn-replay: stopped at f.c:1\n", 0, 0);
  EXPECT_FALSE(printed.error || printed.stopped || printed.diverged);
  EXPECT_FALSE(classifyRun("cairn-replay: stopped at f.c:13\n", 5, 0).stopped);
}

TEST(ReplayCompare, AnOutcomeReproducesOnlyWhatWasRecorded) {
  RecordedOutcome none, oob = errorAt("ptr", "out-of-bounds", "f.c", 3),
                        model = errorAt("model", "symbolic-float", "f.c", 9);
  RecordedOutcome partial;
  partial.partial = true;
  ReplayOutcome exit0 = classifyRun("", 0, 0), exit7 = classifyRun("", 7, 0);
  ReplayOutcome heap = classifyRun("AddressSanitizer: heap-buffer-overflow", 1, 0);
  ReplayOutcome uaf = classifyRun("AddressSanitizer: heap-use-after-free", 1, 0);
  ReplayOutcome stopped = classifyRun("cairn-replay: stopped at f.c:9\n", 6, 0);
  ReplayOutcome diverged = classifyRun("cairn-replay: klee_range value out of range: ...\n", 4, 0);
  EXPECT_TRUE(reproduces(exit0, none));
  EXPECT_TRUE(reproduces(exit7, none)); // the exit status is the program's business
  EXPECT_FALSE(reproduces(heap, none));
  EXPECT_FALSE(reproduces(diverged, none));
  EXPECT_FALSE(reproduces(stopped, none));
  EXPECT_TRUE(reproduces(heap, oob));
  EXPECT_FALSE(reproduces(uaf, oob));
  EXPECT_FALSE(reproduces(exit0, oob));
  // A model error: getting to its place is the outcome; ending any other way first is not.
  EXPECT_TRUE(reproduces(stopped, model));
  EXPECT_FALSE(reproduces(exit0, model));
  EXPECT_FALSE(reproduces(heap, model));
  EXPECT_FALSE(reproduces(exit0, partial));
}

TEST(ReplayCompare, RecordedOutcomesComeFromTheFilesBesideTheTest) {
  fs::path dir = fs::temp_directory_path() / ("cairn-replay-recorded-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char *t : {"test000001", "test000002", "test000003", "test000010"})
    std::ofstream(dir / (std::string(t) + ".ktest")) << "";
  std::ofstream(dir / "test000001.model.err")
      << "Error: floating-point operation on a symbolic value\nFile: dir/f.c\nLine: 13\n"
         "Type: model\nKind: symbolic-float\nStack:\n\t#0 main at dir/f.c:13\n";
  std::ofstream(dir / "test000003.early") << "max-time\n";
  std::ofstream(dir / "test000010.ptr.err") << "Error: x\nFile: f.c\nLine: 2\nType: ptr\nKind: null\n";
  RecordedOutcome first = readRecordedOutcome((dir / "test000001.ktest").string());
  EXPECT_EQ(first.type, "model");
  EXPECT_EQ(first.kind, "symbolic-float");
  EXPECT_EQ(first.file, "dir/f.c");
  EXPECT_EQ(first.line, 13u);
  EXPECT_FALSE(first.partial);
  RecordedOutcome second = readRecordedOutcome((dir / "test000002.ktest").string());
  EXPECT_TRUE(second.type.empty());
  EXPECT_FALSE(second.partial);
  EXPECT_TRUE(readRecordedOutcome((dir / "test000003.ktest").string()).partial);
  EXPECT_EQ(readRecordedOutcome((dir / "test000010.ktest").string()).kind, "null");

  ReplayOptions options;
  enableChecksOf(options, first);
  EXPECT_FALSE(options.checkOverflow || options.checkOvershift);
  enableChecksOf(options, errorAt("overflow", "overshift", "f.c", 1));
  EXPECT_TRUE(options.checkOvershift);
  EXPECT_FALSE(options.checkOverflow);
  enableChecksOf(options, errorAt("overflow", "signed-overflow", "f.c", 1));
  EXPECT_TRUE(options.checkOverflow);
  EXPECT_FALSE(options.checkLeaks || options.checkMemcleanup);
  enableChecksOf(options, errorAt("leak", "unfreed-memory", "f.c", 1));
  EXPECT_TRUE(options.checkMemcleanup);
  EXPECT_FALSE(options.checkLeaks);
  enableChecksOf(options, errorAt("leak", "unreachable-memory", "f.c", 1));
  EXPECT_TRUE(options.checkLeaks);
  fs::remove_all(dir);
}

TEST(ReplayBuildDetails, UndefinedReferencesFromEitherLinker) {
  std::string ld = "/usr/bin/ld: /tmp/p-1.o: in function `main':\n"
                   "/work/p.c:15: undefined reference to `mystery'\n"
                   "/usr/bin/ld: /work/p.c:16: undefined reference to `other_one'\n"
                   "/usr/bin/ld: /work/p.c:17: undefined reference to `mystery'\n"
                   "clang: error: linker command failed with exit code 1\n";
  EXPECT_EQ(undefinedReferences(ld), (std::vector<std::string>{"mystery", "other_one"}));
  EXPECT_EQ(undefinedReferences("ld.lld: error: undefined symbol: mystery\n>>> referenced by p.c:15\n"),
            std::vector<std::string>{"mystery"});
  EXPECT_TRUE(undefinedReferences("ld: cannot find -lfoo\n").empty());
}

TEST(ReplayBuildDetails, SourceFilesMatchByTheirPathsEnds) {
  EXPECT_TRUE(sameSourceFile("/work/main/tests/e2e/programs/f.c", "tests/e2e/programs/f.c"));
  EXPECT_TRUE(sameSourceFile("tests/e2e/programs/f.c", "/work/main/tests/e2e/programs/f.c"));
  EXPECT_TRUE(sameSourceFile("/a/./b/f.c", "/a/b/f.c"));
  EXPECT_FALSE(sameSourceFile("/work/main/tests/e2e/programs/f.c", "s/f.c"));
  EXPECT_FALSE(sameSourceFile("/work/xf.c", "f.c"));
  EXPECT_FALSE(sameSourceFile("/work/f.c", ""));
}

// Analyses a program with the engine, then replays its tests natively.
class ReplayRoundTrip : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cairn-replay-rt-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &source) {
    std::string program = (dir_ / "prog.c").string();
    std::ofstream(program) << source;
    return program;
  }

  // The engine's run over `program` into dir/out; the errors it reported.
  std::vector<ErrorReport> analyse(const std::string &program, ExecutorOptions options,
                                   const std::string &entry = "main") {
    LoadOptions load;
    load.entry = entry;
    auto module = loadProgram(program, load);
    auto translated = translateProgram(*module, entry);
    OutputDirectory out(outDir());
    options.search = SearchStrategy::Dfs;
    RunStatistics stats = Executor(*translated, options, out).run();
    EXPECT_EQ(stats.pathsPartial, 0u);
    return stats.errors;
  }

  struct Replayed {
    std::string test;
    RecordedOutcome recorded;
    ReplayOutcome outcome;

    // What a failed expectation of this replay says: both outcomes and the native output.
    std::string mismatch() const {
      return test + ": " + outcome.describe() + ", recorded " + recorded.describe() + "\n" + outcome.output;
    }
  };

  // Every test of the run, replayed as `cairn replay` does.
  std::vector<Replayed> replayAll(const std::string &program, ReplayOptions options = {}) {
    std::vector<Replayed> all;
    for (const auto &e : fs::directory_iterator(outDir()))
      if (e.path().extension() == ".ktest")
        all.push_back({e.path().string(), readRecordedOutcome(e.path().string()), {}});
    std::sort(all.begin(), all.end(), [](auto &a, auto &b) { return a.test < b.test; });
    for (const Replayed &r : all)
      enableChecksOf(options, r.recorded);
    ReplayBinary binary(program, options);
    for (Replayed &r : all)
      r.outcome = binary.run(r.test, r.recorded);
    return all;
  }

  std::string outDir() const { return (dir_ / "out").string(); }

  fs::path dir_;
};

TEST_F(ReplayRoundTrip, EveryTestOfARunReproducesNatively) {
  std::string program = write("#include \"cairn.h\"\n#include <stdlib.h>\n"
                              "int main(void) {\n"
                              "  int v[4] = {0}; unsigned i; int d;\n"
                              "  klee_make_symbolic(&i, sizeof i, \"i\");\n"
                              "  klee_make_symbolic(&d, sizeof d, \"d\");\n"
                              "  if (i < 5) v[i] = 1;\n"               // i == 4: out of bounds
                              "  if (d > 10) return 100 / (d - 11);\n" // d == 11: division by zero
                              "  klee_assert(d != 3);\n"
                              "  return 0;\n}\n");
  ASSERT_EQ(analyse(program, {}).size(), 3u);
  size_t errors = 0;
  std::vector<Replayed> all = replayAll(program);
  for (const Replayed &r : all) {
    EXPECT_TRUE(reproduces(r.outcome, r.recorded)) << r.mismatch();
    errors += !r.recorded.type.empty();
  }
  EXPECT_EQ(errors, 3u);
  EXPECT_GE(all.size(), 5u);
}

// A program given as bitcode only (as `cairn extract` writes it) is built for replay from that
// bitcode, which clang's front end never saw with -fsanitize=address: its memory errors are
// still caught natively, a global's overflow into the next one too.
TEST_F(ReplayRoundTrip, BitcodeOnlyProgramsStillCatchMemoryErrorsNatively) {
  std::string source = write("#include \"cairn.h\"\n"
                             "int table[4], after[4];\n"
                             "int main(void) {\n"
                             "  int v[4] = {0}; unsigned char i;\n"
                             "  klee_make_symbolic(&i, sizeof i, \"i\");\n"
                             "  if (i < 5) v[i] = 1;\n"          // i == 4: the stack array
                             "  else if (i < 10) table[i - 5] = 1;\n" // i == 9: the global
                             "  return v[0] + after[0];\n}\n");
  const std::string program = (dir_ / "prog.bc").string();
  ASSERT_EQ(std::system(("clang-15 -g -O0 -c -emit-llvm -I" + defaultRuntimeInclude() + " " + source + " -o " +
                         program).c_str()),
            0);
  ASSERT_EQ(analyse(program, {}).size(), 2u);
  size_t errors = 0;
  for (const Replayed &r : replayAll(program)) {
    EXPECT_TRUE(reproduces(r.outcome, r.recorded)) << r.mismatch();
    errors += r.recorded.type == "ptr";
  }
  EXPECT_EQ(errors, 2u);
}

// One path per kind of error that needs more than AddressSanitizer's defaults natively.
TEST_F(ReplayRoundTrip, TheEnginesOtherErrorsReproduce) {
  std::string program = write(R"c(#include "cairn.h"
#include <stdlib.h>
int mystery(int);
static int data = 5;
static int table[3] = {1, 2, 3};
static int forever(int n) { volatile char f[4096]; f[0] = (char)n; return forever(n + 1) + f[0]; }
int main(void) {
  int op, x;
  klee_make_symbolic(&op, sizeof op, "op");
  klee_make_symbolic(&x, sizeof x, "x");
  char b[2];
  double d;
  switch (op) {
  case 1: klee_assume(op != 1); break;
  case 2: klee_make_symbolic(b, 4, "b"); break;
  case 3: ((char *)"literal")[0] = 'L'; break;
  case 4: ((void (*)(void))(void *)&data)(); break;
  case 5: return mystery(x);
  case 6: d = x; return d > 2.5;
  case 7: __builtin_unreachable();
  case 8: return x + 1;
  case 9: __builtin_trap();
  case 10: { char *z = malloc(0); return z[0]; }
  case 11: { int *t = table; return t[-1]; }
  case 12: return forever(0);
  }
  return 0;
}
)c");
  ExecutorOptions options;
  options.checkOverflow = true;
  options.symbolicFloats = false; // op 6: a model error, which replay must reach natively
  std::vector<ErrorReport> errors = analyse(program, options);
  std::set<std::string> reported, expected = {
      "user/assume:14",       "user/make-symbolic:15",       "ptr/read-only:16",
      "ptr/invalid-function-pointer:17", "external/external-call:18", "model/symbolic-float:19",
      "exec/unreachable:20",  "overflow/signed-overflow:21", "abort/abort:22",
      "ptr/out-of-bounds:23", "ptr/out-of-bounds:24",        "exec/stack-overflow:6"};
  for (const ErrorReport &e : errors)
    reported.insert(e.type + "/" + e.kind + ":" + std::to_string(e.line));
  ASSERT_EQ(reported, expected);

  // No flags: the recorded overflow error turns the overflow check on.
  std::vector<Replayed> all = replayAll(program);
  size_t reproduced = 0;
  for (const Replayed &r : all) {
    bool ok = reproduces(r.outcome, r.recorded);
    reproduced += ok;
    EXPECT_TRUE(ok) << r.test << ": " << r.outcome.describe() << ", recorded "
                    << r.recorded.describe() << "\n"
                    << r.outcome.output;
  }
  EXPECT_EQ(reproduced, all.size());
  EXPECT_EQ(all.size(), errors.size() + 2); // and the paths of op 0 and of x + 1 fitting
}

TEST_F(ReplayRoundTrip, AModelErrorIsReproducedOnlyByReachingItsPlace) {
  std::string program = write("#include \"cairn.h\"\n"                         // 1
                              "int main(void) {\n"                              // 2
                              "  int x;\n"                                      // 3
                              "  klee_make_symbolic(&x, sizeof x, \"x\");\n"    // 4
                              "  if (x > 0) {\n"                                // 5
                              "    double d = x;\n"                             // 6
                              "    return d > 1;\n"                             // 7
                              "  }\n"                                           // 8
                              "  // nothing here\n"                             // 9
                              "  return 0;\n"                                   // 10
                              "}\n");
  ExecutorOptions concreteFloats; // so that line 6 is a model error
  concreteFloats.symbolicFloats = false;
  std::vector<ErrorReport> errors = analyse(program, concreteFloats);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type + "/" + errors[0].kind + ":" + std::to_string(errors[0].line), "model/symbolic-float:6");
  std::vector<Replayed> all = replayAll(program);
  ASSERT_EQ(all.size(), 2u);
  const Replayed &model = all[0].recorded.type == "model" ? all[0] : all[1];
  const Replayed &normal = all[0].recorded.type == "model" ? all[1] : all[0];
  EXPECT_TRUE(model.outcome.stopped) << model.outcome.output;
  EXPECT_TRUE(reproduces(model.outcome, model.recorded));
  EXPECT_TRUE(reproduces(normal.outcome, normal.recorded)) << normal.outcome.output;

  ReplayBinary binary(program, {});
  // The other path's inputs never get to line 6: ran to its end, not reproduced.
  ReplayOutcome elsewhere = binary.run(normal.test, model.recorded);
  EXPECT_FALSE(elsewhere.stopped);
  EXPECT_FALSE(reproduces(elsewhere, model.recorded));
  // A place with no code cannot be reached.
  RecordedOutcome comment = model.recorded;
  comment.line = 9;
  ReplayOutcome nowhere = binary.run(model.test, comment);
  EXPECT_FALSE(reproduces(nowhere, comment));
  EXPECT_NE(nowhere.output.find("no machine code at"), std::string::npos) << nowhere.output;
  // The same line of another file is not the place.
  RecordedOutcome otherFile = model.recorded;
  otherFile.file = "other.c";
  EXPECT_FALSE(reproduces(binary.run(model.test, otherFile), otherFile));
}

TEST_F(ReplayRoundTrip, AnotherEntryFunctionIsCalledAsTheEngineCallsIt) {
  std::string program = write("#include \"cairn.h\"\n"
                              "int check(int unset) {\n"
                              "  int x;\n"
                              "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                              "  klee_assert(unset == 0);\n"
                              "  return x > 3;\n"
                              "}\n"
                              "int start(int argc, char **argv, long unset) {\n"
                              "  int x;\n"
                              "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                              "  klee_assert(argc == 1 && argv[1] == 0 && unset == 0);\n"
                              "  return x > 3;\n"
                              "}\n"
                              "int main(void) {\n"
                              "  klee_assert(0);\n"
                              "  return 0;\n"
                              "}\n");
  for (const char *entry : {"check", "start"}) {
    fs::remove_all(outDir());
    EXPECT_TRUE(analyse(program, {}, entry).empty()) << entry;
    ReplayOptions options;
    options.entry = entry;
    for (const Replayed &r : replayAll(program, options))
      EXPECT_TRUE(reproduces(r.outcome, r.recorded)) << entry << ": " << r.outcome.describe() << "\n"
                                                     << r.outcome.output;
    // Natively from main the run fails main's assertion.
    for (const Replayed &r : replayAll(program))
      EXPECT_EQ(r.outcome.describe(), "error: assert (assertion-failure)") << entry;
  }
}

// --build-cache: a replay of the same program with the same options reuses the kept binary; an
// edited header (the program after the preprocessor) or other build options make a new one, whose
// runs follow the edit; a program that does not build leaves nothing behind.
TEST_F(ReplayRoundTrip, AKeptBuildIsReusedUntilTheProgramOrItsOptionsChange) {
  const fs::path cache = dir_ / "cache";
  std::ofstream(dir_ / "limit.h") << "#define LIMIT 10\n";
  std::string program = write("#include \"cairn.h\"\n#include \"limit.h\"\n"
                              "int main(void) {\n"
                              "  int x;\n"
                              "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                              "  klee_assert(x != LIMIT);\n"
                              "  return 0;\n}\n");
  auto entries = [&] {
    std::vector<fs::path> found;
    for (const auto &e : fs::directory_iterator(cache))
      found.push_back(e.path());
    return found;
  };
  auto replayAllReproduce = [&](ReplayOptions options) {
    options.buildCache = cache.string();
    for (const Replayed &r : replayAll(program, options))
      EXPECT_TRUE(reproduces(r.outcome, r.recorded)) << r.mismatch();
  };
  ASSERT_EQ(analyse(program, {}).size(), 1u);
  replayAllReproduce({});
  ASSERT_EQ(entries().size(), 1u);
  const fs::path binary = entries()[0] / "prog";
  ASSERT_TRUE(fs::exists(binary));
  const auto built = fs::last_write_time(binary);
  replayAllReproduce({});
  EXPECT_EQ(entries().size(), 1u);
  EXPECT_EQ(fs::last_write_time(binary), built);

  // The header now says 20: the error test holds x == 20, which the kept binary does not fail on.
  std::ofstream(dir_ / "limit.h") << "#define LIMIT 20\n";
  fs::remove_all(outDir());
  ASSERT_EQ(analyse(program, {}).size(), 1u);
  replayAllReproduce({});
  EXPECT_EQ(entries().size(), 2u);
  ReplayOptions overflow;
  overflow.checkOverflow = true;
  replayAllReproduce(overflow);
  EXPECT_EQ(entries().size(), 3u);

  std::string broken = write("int main(void) { return undeclared; }\n");
  ReplayOptions options;
  options.buildCache = cache.string();
  EXPECT_THROW(ReplayBinary(broken, options), std::runtime_error);
  EXPECT_EQ(entries().size(), 3u); // no entry, and no build directory left
}

TEST_F(ReplayRoundTrip, LineAddressesComeFromTheLineTable) {
  std::string program = write("int main(void) {\n"
                              "  volatile int x = 1;\n"
                              "  return x;\n"
                              "}\n");
  std::string binary = (dir_ / "plain").string();
  ASSERT_EQ(std::system(("clang-15 -g -O0 " + program + " -o " + binary).c_str()), 0);
  EXPECT_FALSE(lineAddresses(binary, program, 2).empty());
  EXPECT_FALSE(lineAddresses(binary, "prog.c", 3).empty());
  EXPECT_TRUE(lineAddresses(binary, program, 5).empty());
  EXPECT_TRUE(lineAddresses(binary, "other.c", 2).empty());
  EXPECT_THROW(lineAddresses((dir_ / "missing").string(), program, 2), std::runtime_error);
}

} // namespace
