// KLEE's functions for steering a state and asking about memory (KleeStateFunctions.cpp): what
// they print in the run's log, and what the memory models let klee_define_fixed_object do.
#include "RunSource.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

const char *kDeclarations = "void klee_stack_trace(void);\n"
                            "void klee_print_range(const char *, int);\n"
                            "void klee_define_fixed_object(void *, unsigned long);\n"
                            "void klee_set_forking(unsigned);\n";

// The run's log while it lives: the default logger writes into `text`.
class CapturedLog {
public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(text_);
    sink->set_pattern("%v");
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink));
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  std::string text() const { return text_.str(); }

private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream text_;
};

class KleeStateFunctionsTest : public EngineRunTest {
protected:
  Outcome run(const std::string &body, MemoryModelKind model = MemoryModelKind::Standard) {
    ExecutorOptions options;
    options.search = SearchStrategy::Dfs;
    options.memory.kind = model;
    return runSource(kDeclarations + body, options);
  }
  // Lines of the program body: the prelude and the declarations come first.
  static unsigned line(unsigned bodyLine) { return kEnginePreludeLines + 4 + bodyLine; }
};

TEST_F(KleeStateFunctionsTest, StackTraceNamesEveryFrameInnermostFirst) {
  CapturedLog log;
  run("static void inner(void) { klee_stack_trace(); }\n"           // 1
      "static void outer(void) { inner(); }\n"                        // 2
      "int main(void) { outer(); return 0; }\n");                     // 3
  std::string text = log.text();
  for (size_t at; (at = text.find(dir.string() + "/")) != std::string::npos;)
    text.erase(at, dir.string().size() + 1); // the program's path, as "prog.c"

  EXPECT_NE(text.find("klee_stack_trace: 3 frames"), std::string::npos) << text;
  EXPECT_NE(text.find("klee_stack_trace: #0 inner at prog.c:" + std::to_string(line(1))), std::string::npos) << text;
  EXPECT_NE(text.find("klee_stack_trace: #1 outer at prog.c:" + std::to_string(line(2))), std::string::npos) << text;
  EXPECT_NE(text.find("klee_stack_trace: #2 main at prog.c:" + std::to_string(line(3))), std::string::npos) << text;
}

TEST_F(KleeStateFunctionsTest, PrintRangeGivesTheValueOrTheSignedBounds) {
  CapturedLog log;
  run("int main(void) {\n"
      "  int x;\n"
      "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
      "  klee_print_range(\"five\", 5);\n"
      "  klee_assume(x >= -3);\n"
      "  klee_assume(x <= 17);\n"
      "  klee_print_range(\"x\", x);\n"
      "  klee_assume(x == 17);\n"
      "  klee_print_range(\"x\", x);\n"
      "  return 0;\n"
      "}\n");
  const std::string text = log.text();
  EXPECT_NE(text.find("klee_print_range: five == 5"), std::string::npos) << text;
  EXPECT_NE(text.find("(in [-3, 17])"), std::string::npos) << text;
  EXPECT_NE(text.find("klee_print_range: x == 17"), std::string::npos) << text;
}

// The relocatable model keeps the addresses of its segments; the standard one keeps none.
TEST_F(KleeStateFunctionsTest, FixedObjectsStayOutOfTheRelocatableModelsSegments) {
  const std::string program = "int main(void) {\n"                                             // 1
                              "  char *at = (char *)0x1000000000ul;\n"                         // 2
                              "  klee_define_fixed_object(at, 16);\n"                          // 3
                              "  at[15] = 1;\n"                                                // 4
                              "  return at[15];\n"                                             // 5
                              "}\n";
  Outcome standard = run(program);
  EXPECT_TRUE(standard.errors().empty());
  EXPECT_EQ(standard.stats.pathsCompleted, 1u);
  Outcome relocatable = run(program, MemoryModelKind::Relocatable);
  EXPECT_EQ(relocatable.errors(), std::multiset<std::string>{"user fixed-object " + std::to_string(line(3))});
  ASSERT_EQ(relocatable.stats.errors.size(), 1u);
  EXPECT_NE(relocatable.stats.errors[0].message.find("segments"), std::string::npos);
}

// The heap, placed in order, steps over a fixed object in its way instead of overlapping it.
TEST_F(KleeStateFunctionsTest, AllocationsStepAroundFixedObjects) {
  Outcome o = run("int main(void) {\n"
                  "  char *first = malloc(16);\n"
                  "  char *fixed = first + 64;\n"
                  "  klee_define_fixed_object(fixed, 256);\n"
                  "  fixed[0] = 7;\n"
                  "  for (int i = 0; i < 8; i++) {\n"
                  "    char *p = malloc(64);\n"
                  "    if (p + 64 > fixed && p < fixed + 256)\n"
                  "      __builtin_trap();\n"
                  "    for (int j = 0; j < 64; j++)\n"
                  "      p[j] = 1;\n"
                  "  }\n"
                  "  if (fixed[0] != 7)\n"
                  "    __builtin_trap();\n"
                  "  return 0;\n"
                  "}\n");
  EXPECT_TRUE(o.errors().empty());
  ASSERT_EQ(o.tests.size(), 1u);
  EXPECT_EQ(o.stats.pathsCompleted, 1u);
}

TEST_F(KleeStateFunctionsTest, ForkingOffFollowsTheTrueSideAndKeepsItsCondition) {
  Outcome o = run("int main(void) {\n"
                  "  int x;\n"
                  "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                  "  klee_set_forking(0);\n"
                  "  if (x == 42)\n"
                  "    return 0;\n"
                  "  return 1;\n"
                  "}\n");
  EXPECT_EQ(o.stats.pathsCompleted, 1u);
  ASSERT_EQ(o.tests.size(), 1u);
  ASSERT_EQ(o.tests[0].objects.size(), 1u);
  const std::vector<uint8_t> &x = o.tests[0].objects[0].second;
  ASSERT_EQ(x.size(), 4u);
  EXPECT_EQ(x[0] | x[1] << 8 | x[2] << 16 | x[3] << 24, 42);
}

} // namespace
