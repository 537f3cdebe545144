// Query count estimation (PLDI'12, section 3) on the paper's examples: the simplified echo of
// Figure 1 with the numbers the paper computes by hand, dead and killed variables, counted
// loops, and summaries through pointer parameters.
#include "analysis/QueryCounts.h"

#include "RunSource.h"
#include "SleepProgram.h"
#include "analysis/ControlFlow.h"
#include "analysis/TripCounts.h"

using namespace cairn::engine;
using namespace cairn::engine::analysis;

namespace {

class QueryCountsTest : public unit::EngineRunTest {
protected:
  std::unique_ptr<LoadedModule> module;
  std::unique_ptr<Program> program;

  void load(const std::string &source) {
    unit::CompiledSource compiled = unit::compileWithoutRuntime(dir, source);
    module = std::move(compiled.module);
    program = std::move(compiled.program);
  }
  uint32_t function(const std::string &name) const {
    for (uint32_t f = 0; f < program->functions.size(); ++f)
      if (program->functions[f].name == name)
        return f;
    ADD_FAILURE() << "no function " << name;
    return 0;
  }
  // The block of `fn` whose conditional branch is on `line`.
  uint32_t branchBlock(uint32_t fn, uint32_t line) const {
    const Function &f = program->functions[fn];
    ControlFlow cfg(f);
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
      const Instr &t = cfg.terminator(b);
      if (t.op == Opcode::CondBr && program->locations[t.loc].line == line)
        return b;
    }
    ADD_FAILURE() << "no branch on line " << line;
    return 0;
  }
  // The variable id of local `name` (its whole slot) in the estimate of `fn`.
  std::optional<uint32_t> local(const FunctionCounts &c, uint32_t fn, const std::string &name) const {
    const Function &f = program->functions[fn];
    for (const auto &[reg, n] : f.localNames)
      if (n == name)
        for (uint32_t i = 0; i < c.memory.size(); ++i)
          if (c.memory[i].base == MemoryVariable::Base::Local && c.memory[i].index == reg && c.memory[i].offset == 0)
            return c.numRegs + i;
    return std::nullopt;
  }
  // Which of the sleep programs' locals are hot at `block`, by name, sorted.
  std::vector<std::string> hotLocals(const QueryCountEstimate &est, uint32_t fn, uint32_t block) const {
    const FunctionCounts &c = est.functions[fn];
    const QueryCounts &at = c.atBlock[block];
    std::vector<std::string> names;
    for (uint32_t v : hotVariables(at, at.total, est.options.alpha))
      for (const char *name : {"a", "i", "value", "seconds"})
        if (local(c, fn, name) == v)
          names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
  }
  // For the sleep programs: `name` is cold by Eq. 2 at main's digit loop header (line 8), a
  // few queries against a Q_t past 1e12, yet hot by default; the hot locals there are `hot`,
  // and `byCounts` with `paper`'s rule off.
  void expectHotOnlyByRule(const std::string &name, const QceOptions &paper, const std::vector<std::string> &hot,
                           const std::vector<std::string> &byCounts) {
    const uint32_t main = function("main"), header = branchBlock(main, 8);
    const QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
    const FunctionCounts &c = est.functions[main];
    const double total = c.atBlock[header].total;
    EXPECT_GT(total, 1e12);
    EXPECT_GT(added(c, main, header, name), 0);
    EXPECT_LT(added(c, main, header, name), est.options.alpha * total) << "cold by Eq. 2";
    EXPECT_EQ(hotLocals(est, main, header), hot);
    EXPECT_EQ(hotLocals(estimateQueryCounts(*program, paper), main, header), byCounts);
  }
  double added(const FunctionCounts &c, uint32_t fn, uint32_t block, const std::string &name) const {
    std::optional<uint32_t> v = local(c, fn, name);
    return v ? c.atBlock[block].addedFor(*v) : 0;
  }
};

// Figure 1, on the paper's lines (strcmp has no body here, putchar does not fork).
const char *kEcho =
    "int strcmp(const char *, const char *); int putchar(int); int main(int argc, char **argv) {\n"
    "  int r = 1, arg = 1;\n"
    "  if (arg < argc)\n"
    "    if (strcmp(argv[arg], \"-n\") == 0) {\n"
    "      r = 0; ++arg;\n"
    "    }\n"
    "  for (; arg < argc; ++arg)\n"
    "    for (int i = 0; argv[arg][i] != 0; ++i)\n"
    "      putchar(argv[arg][i]);\n"
    "  if (r)\n"
    "    putchar('\\n');\n"
    "  return 0; }\n";

TEST_F(QueryCountsTest, EchoCountsAreThePapersHandComputation) {
  load(kEcho);
  QceOptions o;
  o.alpha = 0.5;
  o.beta = 0.6;
  o.kappa = 1;
  o.countMemoryAccesses = false; // the paper's example counts branches only
  QueryCountEstimate est = estimateQueryCounts(*program, o);
  const uint32_t main = function("main"), line7 = branchBlock(main, 7);
  const FunctionCounts &c = est.functions[main];
  ASSERT_TRUE(c.analysed);
  EXPECT_NEAR(c.atBlock[line7].total, 1 + 2 * 0.6 + 2 * 0.36, 1e-9); // Q_t(7) = 2.92
  EXPECT_NEAR(added(c, main, line7, "arg"), 1 + 0.6, 1e-9);          // Q_add(7, arg) = 1.6
  EXPECT_NEAR(added(c, main, line7, "r"), 0.6 + 2 * 0.36, 1e-9);     // Q_add(7, r) = 1.32
  EXPECT_EQ(added(c, main, line7, "i"), 0) << "i is set before any use after line 7";
  // H(7) = {arg}: 1.6 > 0.5 * 2.92 = 1.46 > 1.32.
  std::vector<uint32_t> hot = hotVariables(c.atBlock[line7], c.atBlock[line7].total, o.alpha);
  ASSERT_EQ(hot.size(), 1u);
  EXPECT_EQ(hot[0], *local(c, main, "arg"));
}

TEST_F(QueryCountsTest, EchoWithMemoryAccessesCountedKeepsArgHotAndRCold) {
  load(kEcho);
  QceOptions o;
  o.alpha = 0.5;
  o.beta = 0.6;
  o.kappa = 1;
  QueryCountEstimate est = estimateQueryCounts(*program, o);
  const uint32_t main = function("main"), line7 = branchBlock(main, 7);
  const FunctionCounts &c = est.functions[main];
  // argv[arg] and argv[arg][i] are reads at variable offsets: more queries, more of them on arg.
  EXPECT_GT(c.atBlock[line7].total, 2.92);
  EXPECT_GT(added(c, main, line7, "arg"), 1.6);
  EXPECT_NEAR(added(c, main, line7, "r"), 1.32, 1e-9);
  std::vector<uint32_t> hot = hotVariables(c.atBlock[line7], c.atBlock[line7].total, o.alpha);
  // arg, and argv itself (register 1): the pointer every access goes through.
  EXPECT_EQ(hot, (std::vector<uint32_t>{1, *local(c, main, "arg")}));
}

TEST_F(QueryCountsTest, PaperDefaultsMakeEveryLaterUseHot) {
  load(kEcho);
  QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
  const uint32_t main = function("main"), line7 = branchBlock(main, 7);
  const FunctionCounts &c = est.functions[main];
  const QueryCounts &at = c.atBlock[line7];
  std::vector<uint32_t> hot = hotVariables(at, at.total, est.options.alpha);
  auto isHot = [&](const std::string &name) {
    std::optional<uint32_t> v = local(c, main, name);
    return v && std::find(hot.begin(), hot.end(), *v) != hot.end();
  };
  EXPECT_TRUE(isHot("arg"));
  EXPECT_TRUE(isHot("r"));
  EXPECT_FALSE(isHot("i")) << "dead at the outer loop's header";
}

// A variable only accumulated and never branched on (the paper's `sleep`) is never hot; the
// counter of a counted loop is.
TEST_F(QueryCountsTest, AccumulatorIsColdAndCountedLoopsHaveTripCounts) {
  load("void use(long); int main(int argc, char **argv) {\n"
       "  long seconds = 0;\n"
       "  for (int k = 0; k < 6; ++k)\n"
       "    if (argv[1][k] == '5') seconds += 5; else seconds += 1;\n"
       "  use(seconds);\n"
       "  return 0; }\n");
  const uint32_t main = function("main");
  const Function &f = program->functions[main];
  ControlFlow cfg(f);
  GlobalIndex globals(*program);
  DataDependence deps(*program, f, globals);
  findTripCounts(*program, f, cfg, deps);
  ASSERT_EQ(cfg.loops().size(), 1u);
  EXPECT_EQ(cfg.loops()[0].tripCount, 6u);

  QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
  const FunctionCounts &c = est.functions[main];
  const uint32_t header = branchBlock(main, 3), body = branchBlock(main, 4);
  EXPECT_EQ(added(c, main, header, "seconds"), 0);
  EXPECT_GT(added(c, main, header, "k"), 0);
  // Six header tests (the seventh leaves without a query), and in each iteration a read of
  // argv[1] at the offset k and a branch on the byte read.
  const double b = 0.8;
  double expected = 0;
  for (int n = 0; n < 6; ++n)
    expected = 1 + b * (2 + 2 * b * expected);
  EXPECT_NEAR(c.atBlock[header].total, expected, 1e-9);
  EXPECT_GT(c.atBlock[body].total, 0);
}

// Counts through a call: the callee's branch on what its pointer parameter points to is a
// query on the caller's variable whose address it gets.
// A variable the loop builds and a branch after the loop reads is hot at the loop's exit and
// at its header: states leaving the loop with different values are kept apart.
TEST_F(QueryCountsTest, VariableReadAfterACountedLoopIsHotAtItsExit) {
  load("int main(int argc, char **argv) {\n"
       "  unsigned mode = 0;\n"
       "  for (int i = 0; i < 3; ++i)\n"
       "    if (argv[1][i] < '0') mode = mode * 4 + 1; else mode = mode * 4 + 2;\n"
       "  if (mode % 5 == 2)\n"
       "    return 1;\n"
       "  return 0; }\n");
  const uint32_t main = function("main");
  const QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
  const FunctionCounts &c = est.functions[main];
  const uint32_t header = branchBlock(main, 3), exit = branchBlock(main, 5);
  EXPECT_DOUBLE_EQ(added(c, main, exit, "mode"), 1);
  EXPECT_EQ(c.atBlock[exit].total, 1);
  EXPECT_GT(added(c, main, header, "mode"), 0);
  EXPECT_GT(added(c, main, header, "i"), 0);
}

// The paper's sleep over ten arguments: Q_t at the inner loop's header counts the queries of
// every argument still to parse (about 1e17), the digit index i only those of the argument it
// indexes (a few hundred): by Eq. 2 i is cold, and states in different iterations merge into
// a symbolic index. It reaches the address of arg[a][i], so it is hot by default; with
// addressesHot off (--qce-cold-addresses), Eq. 2 alone decides. The sum, which no address
// depends on, stays cold either way.
TEST_F(QueryCountsTest, AnIndexOfAnAccessAheadIsHotWhateverItsCount) {
  load(unit::sleepOverTenArguments("__builtin_memcpy(arg, argv[1], sizeof arg);"));
  QceOptions paper;
  paper.addressesHot = false;
  expectHotOnlyByRule("i", paper, {"a", "i"}, {"a"});
}

// The same sleep parsing each argument into a double that a branch compares (as coreutils'
// sleep compares its parsed interval): by Eq. 2 the value is cold at the digit loop's header,
// a few queries against the 1e17 of the arguments still to parse, and states with different
// values would merge into a floating-point ite that the comparison hands the solver as a
// floating-point formula. The value reaches a floating-point query, so it is hot by default;
// with floatsHot off (--qce-cold-floats), Eq. 2 alone decides.
TEST_F(QueryCountsTest, AVariableReachingAFloatingPointQueryIsHotWhateverItsCount) {
  load("int main(int argc, char **argv) {\n"
       "  char arg[10][4];\n"
       "  __builtin_memcpy(arg, argv[1], sizeof arg);\n"
       "  long seconds = 0;\n"
       "  for (int a = 0; a < 10; ++a) {\n"
       "    arg[a][3] = 0;\n"
       "    double value = 0;\n"
       "    for (int i = 0; arg[a][i] >= '0' && arg[a][i] <= '9'; ++i)\n"
       "      value = value * 10 + (arg[a][i] - '0');\n"
       "    if (value > 500.5)\n"
       "      seconds += 2;\n"
       "  }\n"
       "  return (int)(seconds & 0x7f);\n"
       "}\n");
  QceOptions paper;
  paper.floatsHot = false;
  expectHotOnlyByRule("value", paper, {"a", "i", "value"}, {"a", "i"});
}

// Functions reached only through pointers are estimated too: one whose address a global
// holds, one whose address an instruction takes. Their states would otherwise merge with
// nothing hot (coreutils' sleep parses through xstrtod's `convert` pointer: the parse's states
// merged whatever character each had read). A function nothing refers to is not estimated.
TEST_F(QueryCountsTest, FunctionsReachedThroughPointersAreEstimated) {
  load("static int digits(const char *s) {\n"
       "  int n = 0;\n"
       "  while (s[n] >= '0' && s[n] <= '9') ++n;\n"
       "  return n > 2;\n"
       "}\n"
       "static int letters(const char *s) {\n"
       "  int n = 0;\n"
       "  while (s[n] >= 'a' && s[n] <= 'z') ++n;\n"
       "  return n > 2;\n"
       "}\n"
       "int unused(const char *s) { return s[0] == 'x'; }\n"
       "int (*const byTable)(const char *) = digits;\n"
       "int main(int argc, char **argv) {\n"
       "  int (*pick)(const char *) = argc > 2 ? letters : byTable;\n"
       "  return pick(argv[1]);\n"
       "}\n");
  const QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
  for (const char *name : {"digits", "letters"}) {
    const uint32_t f = function(name), loop = branchBlock(f, name == std::string("digits") ? 3 : 8);
    const FunctionCounts &c = est.functions[f];
    ASSERT_TRUE(c.analysed) << name;
    const QueryCounts &at = c.atBlock[loop];
    EXPECT_GT(at.total, 0) << name;
    const std::vector<uint32_t> hot = hotVariables(at, at.total, est.options.alpha);
    EXPECT_NE(std::find(hot.begin(), hot.end(), *local(c, f, "n")), hot.end()) << name;
  }
  EXPECT_FALSE(est.functions[function("unused")].analysed);
}

// A loop of 1500 branches without a static trip count unrolls into a chain of some 30,000
// block copies (coreutils' tr has one of 10,000): the estimate walks it without recursing
// once per copy, which went past the stack.
TEST_F(QueryCountsTest, ALongUnrolledLoopIsEstimatedWithoutRecursingPerCopy) {
  std::string source = "int main(int argc, char **argv) {\n  int s = 0;\n"
                       "  for (int i = 0; argv[1][i]; ++i) {\n";
  for (int k = 0; k < 1500; ++k)
    source += "    if (argv[1][i] == " + std::to_string(k % 251) + ") s += " + std::to_string(k) + ";\n";
  source += "  }\n  return s; }\n";
  load(source);
  const QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
  const FunctionCounts &c = est.functions[function("main")];
  ASSERT_TRUE(c.analysed);
  EXPECT_GT(c.copies, 20000u);
  EXPECT_GT(c.atBlock[0].total, 1500);
}

// Three nested loops without static trip counts: over the copy limit, the function is
// estimated with kappa halved until its unrolling fits, and the estimate is the one made at
// that kappa directly: the largest kappa that fits, whether or not the tries before it were
// evaluated.
TEST_F(QueryCountsTest, AnUnrollingOverTheLimitIsEstimatedAtTheLargestKappaThatFits) {
  load("int main(int argc, char **argv) {\n  int s = 0;\n"
       "  for (int i = 0; argv[1][i]; ++i)\n"
       "    for (int j = 0; argv[2][j]; ++j)\n"
       "      for (int k = 0; argv[3][k]; ++k)\n"
       "        if (argv[1][i] == argv[2][j] + argv[3][k]) s += 1;\n"
       "  return s; }\n");
  const uint32_t fn = function("main");
  auto at = [&](uint32_t kappa, uint64_t limit) {
    QceOptions o;
    o.kappa = kappa;
    o.maxCopiesPerFunction = limit;
    return estimateQueryCounts(*program, o).functions[fn];
  };
  const FunctionCounts ten = at(10, 1u << 20), five = at(5, 1u << 20);
  ASSERT_TRUE(ten.analysed && five.analysed);
  ASSERT_GT(ten.copies, five.copies);
  // A limit between the two: ten's unrolling does not fit, five's does.
  const FunctionCounts limited = at(10, (ten.copies + five.copies) / 2);
  EXPECT_EQ(limited.kappa, 5u);
  EXPECT_EQ(limited.copies, five.copies);
  EXPECT_EQ(limited.atBlock[0].total, five.atBlock[0].total);
  // Exactly at five's size it still fits; one less, and kappa is halved again.
  EXPECT_EQ(at(10, five.copies).kappa, 5u);
  EXPECT_LT(at(10, five.copies - 1).kappa, 5u);
}

TEST_F(QueryCountsTest, CalleeSummaryMapsPointeesToTheCallersVariables) {
  load("int big(int *p) { if (*p > 3) return 1; return 0; }\n"
       "int main(int argc, char **argv) {\n"
       "  int x = argc, y = argc;\n"
       "  if (argc > 1)\n"
       "    x = 2;\n"
       "  return big(&x) + y; }\n");
  QueryCountEstimate est = estimateQueryCounts(*program, QceOptions{});
  const uint32_t main = function("main"), callee = function("big");
  const FunctionCounts &c = est.functions[main];
  const FunctionCounts &b = est.functions[callee];
  ASSERT_TRUE(b.analysed);
  EXPECT_NEAR(b.atBlock[0].total, 1, 1e-9);
  // main's join (the block that calls big) sees big's query on x, none on y.
  const Function &f = program->functions[main];
  uint32_t join = ~0u;
  for (uint32_t blk = 0; blk < f.blocks.size(); ++blk) {
    const uint32_t end = blk + 1 < f.blocks.size() ? f.blocks[blk + 1].firstInstr : uint32_t(f.instrs.size());
    for (uint32_t i = f.blocks[blk].firstInstr; i < end; ++i)
      if (f.instrs[i].op == Opcode::Call && f.callSites[f.instrs[i].imm].callee == callee)
        join = blk;
  }
  ASSERT_NE(join, ~0u);
  EXPECT_EQ(ControlFlow(f).predecessors(join).size(), 2u);
  EXPECT_NEAR(added(c, main, join, "x"), 1, 1e-9);
  EXPECT_EQ(added(c, main, join, "y"), 0);
  EXPECT_NEAR(c.atBlock[join].total, 1, 1e-9);
}

} // namespace
