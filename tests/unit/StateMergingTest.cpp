// State merging and the bounded symbolic-size model: the execution-tree encodings (Algorithms 5
// and 6 of the symbolic-size chapter) on the chapter's Figure 5.3 tree, and whole runs of its
// example programs in every size mode.
#include "merging/StateMerging.h"

#include "RunSource.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

using namespace cairn;
using namespace cairn::engine;

namespace {

// --- Algorithms 5 and 6 on Figure 5.3 ------------------------------------------------------

// The tree of Figure 5.3 (capacity 3): the root forks on 0 < n into s1 (n <= 0) and a state
// that forks on z == 0 into s3 (the break) and one that forks on 1 < n into s5 (n <= 1) and
// one that forks on 2 < n into s7 (n <= 2) and s8 (n > 2).
class Figure53 : public ::testing::Test {
protected:
  ExprContext ctx;
  ExprRef n = ctx.symbol(ctx.declareSymbol("n", 64, SymbolClass::Input));
  ExprRef z = ctx.symbol(ctx.declareSymbol("z", 32, SymbolClass::Input));
  ExprRef a2 = ctx.symbol(ctx.declareSymbol("a2", 8, SymbolClass::Input)); // p[2] before the loop
  ExecutionTree tree{ctx};
  uint32_t s1, s3, s5, s7, s8;
  std::unique_ptr<Solver> solver;

  void SetUp() override {
    auto [positive, s1Leaf] = tree.split(0, ctx.ult(k(0), n));
    auto [zero, nonzero] = tree.split(positive, ctx.eq(z, ctx.constant(0, 32)));
    auto [more1, s5Leaf] = tree.split(nonzero, ctx.ult(k(1), n));
    auto [s8Leaf, s7Leaf] = tree.split(more1, ctx.ult(k(2), n));
    s1 = s1Leaf, s3 = zero, s5 = s5Leaf, s7 = s7Leaf, s8 = s8Leaf;
    SolverChainOptions o;
    solver = createSolverChain(o);
  }
  void TearDown() override { solver.reset(); }

  ExprRef k(uint64_t v) { return ctx.constant(v, 64); }
  bool equivalentUnder(const ExprRef &pc, const ExprRef &a, const ExprRef &b) {
    Answer<bool> same = solver->mustBeTrue({ctx.ule(n, k(3)), pc}, ctx.eq(a, b));
    return same.known() && *same;
  }
};

TEST_F(Figure53, LoopExitGroupConditionIsTheChaptersShortcut) {
  std::vector<uint32_t> group = {s1, s5, s7, s8};
  TreeMerge merge(ctx, tree, group);
  // (n <= 0) or (n > 0 and z != 0): the subtree below z != 0 is complete, so its forks vanish.
  ExprRef expected = ctx.lor(ctx.lnot(ctx.ult(k(0), n)),
                             ctx.land(ctx.ult(k(0), n), ctx.lnot(ctx.eq(z, ctx.constant(0, 32)))));
  EXPECT_TRUE(equivalentUnder(ctx.trueExpr(), merge.condition(), expected));
  EXPECT_EQ(merge.condition(), expected) << "built from the tree, not simplified afterwards";
}

TEST_F(Figure53, BreakGroupConditionIsItsOwnPath) {
  std::vector<uint32_t> group = {s3};
  TreeMerge merge(ctx, tree, group);
  EXPECT_TRUE(equivalentUnder(ctx.trueExpr(), merge.condition(),
                              ctx.land(ctx.ult(k(0), n), ctx.eq(z, ctx.constant(0, 32)))));
}

TEST_F(Figure53, CompleteTreeMergesToTrue) {
  std::vector<uint32_t> all = {s1, s3, s5, s7, s8};
  EXPECT_TRUE(TreeMerge(ctx, tree, all).condition()->isTrue());
}

TEST_F(Figure53, MergedByteIsLinearAndCorrectUnderThePathCondition) {
  std::vector<uint32_t> group = {s1, s5, s7, s8};
  TreeMerge merge(ctx, tree, group);
  // p[2] is written (with 2) only on the path that ran three iterations.
  std::vector<ExprRef> values = {a2, a2, a2, ctx.constant(2, 8)};
  ExprRef merged = merge.value(values);
  EXPECT_TRUE(equivalentUnder(merge.condition(), merged, ctx.ite(ctx.ule(n, k(2)), a2, ctx.constant(2, 8))));
  // Linear in the forks on the way to s8 (the chapter's O(n)), nothing from the break subtree.
  EXPECT_LE(dagSize(merged.get()), 12u);
}

TEST_F(Figure53, EachLeafGetsItsOwnValue) {
  std::vector<uint32_t> group = {s1, s5, s7, s8};
  TreeMerge merge(ctx, tree, group);
  std::vector<ExprRef> values = {ctx.constant(10, 8), ctx.constant(11, 8), ctx.constant(12, 8),
                                 ctx.constant(13, 8)};
  ExprRef merged = merge.value(values);
  for (uint64_t size = 0; size <= 3; ++size) {
    ExprRef pc = ctx.land(ctx.eq(n, k(size)), ctx.lnot(ctx.eq(z, ctx.constant(0, 32))));
    EXPECT_TRUE(equivalentUnder(pc, merged, values[size])) << "n = " << size;
  }
}

// --- Whole runs --------------------------------------------------------------------------------

class SizeModelRun : public unit::EngineRunTest {
protected:
  RunStatistics run(const std::string &body, ExecutorOptions eo) { return runSource(body, eo).stats; }
  RunStatistics figure17(ExecutorOptions eo) { return runCorpusProgram("symsize_fig17.c", eo).stats; }

  static ExecutorOptions mode(SizeMode m, uint64_t capacity, SearchStrategy search = SearchStrategy::Dfs) {
    ExecutorOptions eo;
    eo.search = search;
    eo.sizeModel.kind = SizeModelKind::Symbolic;
    eo.sizeModel.mode = m;
    eo.sizeModel.capacity = capacity;
    return eo;
  }
};

TEST_F(SizeModelRun, Figure17PathsPerMode) {
  EXPECT_EQ(figure17(mode(SizeMode::Lazy, 3)).pathsCompleted, 5u);
  EXPECT_EQ(figure17(mode(SizeMode::Eager, 3)).pathsCompleted, 7u);
  for (SizeMode m : {SizeMode::Merge, SizeMode::MergeOpt})
    for (SearchStrategy s : {SearchStrategy::Dfs, SearchStrategy::Bfs, SearchStrategy::RandomPath,
                             SearchStrategy::Default}) {
      RunStatistics st = figure17(mode(m, 3, s));
      EXPECT_EQ(st.pathsCompleted, 2u) << "one path per loop exit";
      EXPECT_EQ(st.merging.contexts, 1u);
      EXPECT_EQ(st.merging.merges, 1u);
      EXPECT_EQ(st.merging.statesMerged, 4u) << "n = 0, 1, 2, 3 leave through the condition";
    }
}

TEST_F(SizeModelRun, TreeEncodingIsSmallerAndNeedsNoMoreQueries) {
  RunStatistics plain = figure17(mode(SizeMode::Merge, 20));
  RunStatistics tree = figure17(mode(SizeMode::MergeOpt, 20));
  EXPECT_EQ(plain.pathsCompleted, tree.pathsCompleted);
  EXPECT_LT(tree.merging.constraintNodes, plain.merging.constraintNodes);
  EXPECT_LT(tree.merging.valueNodes, plain.merging.valueNodes);
  EXPECT_LE(tree.queries, plain.queries);
}

TEST_F(SizeModelRun, MergedStateIsExactForEverySize) {
  // After the merged loop, p[k] == k exactly for the k < n the loop wrote.
  const char *program = R"(
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  unsigned char *p = malloc(n);
  for (unsigned long i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 3);
  unsigned long k;
  klee_make_symbolic(&k, sizeof k, "k");
  if (k < n && p[k] != (unsigned char)(k * 3))
    *(volatile int *)0 = 1;
  return 0;
}
)";
  for (SizeMode m : {SizeMode::Lazy, SizeMode::Merge, SizeMode::MergeOpt}) {
    RunStatistics st = run(program, mode(m, 6));
    EXPECT_TRUE(st.errors.empty()) << "mode " << int(m) << ": " << (st.errors.empty() ? "" : st.errors[0].message);
  }
}

TEST_F(SizeModelRun, StatesEndingInsideTheLoopDoNotBlockTheMerge) {
  // The prototype's loop5: with capacity 4, every n >= 2 writes out of bounds inside the loop;
  // the two survivors (n = 0 and n = 1) still merge.
  const char *program = R"(
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  for (unsigned long i = 0; i < n; i++)
    p[i * 2] = 7;
  return 0;
}
)";
  RunStatistics st = run(program, mode(SizeMode::MergeOpt, 4));
  EXPECT_EQ(st.merging.merges, 1u);
  EXPECT_EQ(st.merging.statesMerged, 2u);
  EXPECT_GE(st.merging.earlyTerminated, 1u);
  ASSERT_EQ(st.errors.size(), 1u);
  EXPECT_EQ(st.errors[0].kind, "out-of-bounds");
}

TEST_F(SizeModelRun, LoopsWithCallsMergeOnlyWhenAllowed) {
  const char *program = R"(
__attribute__((noinline)) static int id(int x) { return x; }
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  for (unsigned long i = 0; i < n; i++)
    p[i] = id(1);
  return 0;
}
)";
  RunStatistics off = run(program, mode(SizeMode::MergeOpt, 5));
  EXPECT_EQ(off.merging.contexts, 0u);
  EXPECT_EQ(off.pathsCompleted, 6u);
  ExecutorOptions on = mode(SizeMode::MergeOpt, 5);
  on.merging.loopsWithCalls = true;
  RunStatistics merged = run(program, on);
  EXPECT_EQ(merged.merging.merges, 1u);
  EXPECT_EQ(merged.pathsCompleted, 1u);
}

TEST_F(SizeModelRun, GroupsOverTheStateCapGoOnUnmerged) {
  ExecutorOptions eo = mode(SizeMode::MergeOpt, 3);
  eo.merging.maxStates = 3;
  RunStatistics st = figure17(eo);
  EXPECT_EQ(st.merging.merges, 0u);
  EXPECT_EQ(st.merging.refused, 1u);
  EXPECT_EQ(st.pathsCompleted, 5u);
}

TEST_F(SizeModelRun, CapacityIsRaisedWhenTheSizeCannotFit) {
  const char *program = R"(
int main(void) {
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 150);
  klee_assume(n <= 160);
  char *p = malloc(n);
  p[n - 1] = 1;
  if (n == 155)
    p[n] = 1;
  return 0;
}
)";
  RunStatistics st = run(program, mode(SizeMode::Lazy, 100));
  EXPECT_EQ(st.merging.symbolicSizeObjects, 1u);
  ASSERT_EQ(st.errors.size(), 1u) << "only p[n] is out of bounds";
  EXPECT_EQ(st.errors[0].line, unit::kEnginePreludeLines + 10);
}

TEST_F(SizeModelRun, ConcreteModelConcretizesTheSize) {
  ExecutorOptions eo;
  eo.search = SearchStrategy::Dfs;
  RunStatistics st = figure17(eo);
  EXPECT_EQ(st.merging.symbolicSizeObjects, 0u);
  // KLEE's procedure: n fixed to the solver's 0 (no loop), n > 2^31 (NULL: the break, and the
  // write through NULL) and the sizes left (a model error): 4 paths.
  EXPECT_EQ(st.pathsCompleted, 4u);
  EXPECT_EQ(st.errors.size(), 2u);
}

TEST_F(SizeModelRun, RegionMergeJoinsPathsFromDifferentPredecessors) {
  const char *program = R"(
__attribute__((noinline)) static int pick(int x) {
  int y;
  klee_open_merge();
  if (x > 10)
    y = 1;
  else if (x < -10)
    y = 2;
  else
    y = 3;
  klee_close_merge();
  return y;
}
int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int y = pick(x);
  if (y == 2 && x >= -10)
    *(volatile int *)0 = 1;
  return y;
}
)";
  for (bool tree : {false, true}) {
    ExecutorOptions eo;
    eo.search = SearchStrategy::Dfs;
    eo.merging.treeEncoding = tree;
    RunStatistics st = run(program, eo);
    EXPECT_EQ(st.merging.merges, 1u);
    EXPECT_EQ(st.merging.statesMerged, 3u);
    EXPECT_TRUE(st.errors.empty()) << "y == 2 only when x < -10";
    // y == 2 and y != 2 after the merge; && short-circuits on y first.
    EXPECT_EQ(st.pathsCompleted, 2u);
  }
}

} // namespace
