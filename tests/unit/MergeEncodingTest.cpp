// The merge encodings behind MergeEncoding: for one group, the disjunctive and the
// execution-tree encoding give equivalent conditions and values, and a context whose tree no
// longer matches its states falls back to the disjunctive one.
#include "merging/MergeEncoding.h"

#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

using namespace cairn;
using namespace cairn::engine;

namespace {

// A context that forked on x < 10, then (on the true side) on y < 5: three leaves, the group
// the two states on the true side of x < 10.
class TwoForks : public ::testing::Test {
protected:
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 32, SymbolClass::Input));
  ExprRef y = ctx.symbol(ctx.declareSymbol("y", 32, SymbolClass::Input));
  MergeContext context{ctx};
  ExecutionState small, large;
  std::vector<ExecutionState *> group = {&small, &large};
  std::unique_ptr<Solver> solver = createSolverChain(SolverChainOptions{});

  void SetUp() override {
    ExprRef xs = ctx.ult(x, c(10)), ys = ctx.ult(y, c(5));
    auto [left, right] = context.tree.split(0, xs);
    auto [yes, no] = context.tree.split(left, ys);
    (void)right;
    small.constraints = {xs, ys};
    large.constraints = {xs, ctx.lnot(ys)};
    small.merges.push_back({nullptr, yes, {}});
    large.merges.push_back({nullptr, no, {}});
  }
  void TearDown() override { solver.reset(); }
  ExprRef c(uint64_t v) { return ctx.constant(v, 32); }
  bool equivalent(const ExprRef &a, const ExprRef &b, const ExprRef &under) {
    Answer<bool> same = solver->mustBeTrue({under}, ctx.eq(a, b));
    return same.known() && *same;
  }
};

TEST_F(TwoForks, BothEncodingsMergeToTheSameMeaning) {
  auto tree = createMergeEncoding(MergeEncodingKind::ExecutionTree, ctx, context, group);
  auto disjunctive = createMergeEncoding(MergeEncodingKind::Disjunctive, ctx, context, group);
  // The tree sees that the two leaves are the whole of x < 10.
  EXPECT_EQ(tree->condition(), ctx.ult(x, c(10)));
  EXPECT_TRUE(equivalent(tree->condition(), disjunctive->condition(), ctx.trueExpr()));
  std::vector<ExprRef> values = {c(1), c(2)};
  ExprRef byTree = tree->merge(values), byGuards = disjunctive->merge(values);
  EXPECT_TRUE(equivalent(byTree, byGuards, tree->condition()));
  EXPECT_TRUE(equivalent(byTree, c(1), ctx.land(ctx.ult(x, c(10)), ctx.ult(y, c(5)))));
  EXPECT_TRUE(equivalent(byTree, c(2), ctx.land(ctx.ult(x, c(10)), ctx.lnot(ctx.ult(y, c(5))))));
  EXPECT_GT(tree->valueNodes(), 0u);
}

TEST_F(TwoForks, EqualValuesNeedNoMergedValue) {
  auto tree = createMergeEncoding(MergeEncodingKind::ExecutionTree, ctx, context, group);
  std::vector<ExprRef> same = {c(7), c(7)};
  EXPECT_EQ(tree->merge(same), c(7));
  EXPECT_EQ(tree->valueNodes(), 0u);
}

TEST_F(TwoForks, AContextWhoseTreeNoLongerMatchesUsesTheDisjunctiveEncoding) {
  context.treeExact = false;
  auto encoding = createMergeEncoding(MergeEncodingKind::ExecutionTree, ctx, context, group);
  // The disjunction of the states' own constraints, not the tree's shortcut.
  EXPECT_NE(encoding->condition(), ctx.ult(x, c(10)));
  EXPECT_TRUE(equivalent(encoding->condition(), ctx.ult(x, c(10)), ctx.trueExpr()));
}

// States of different subtrees (dynamic merging pairs them): each value is guarded by a literal
// that parts its path from the later states', not by its whole path-condition suffix.
TEST(DisjunctiveGuards, AValueIsGuardedByTheLiteralThatPartsThePaths) {
  ExprContext ctx;
  auto var = [&](const char *name) { return ctx.symbol(ctx.declareSymbol(name, 32, SymbolClass::Input)); };
  ExprRef x = var("x"), y = var("y"), z = var("z");
  ExprRef a = ctx.ult(x, ctx.constant(10, 32)), b = ctx.ult(y, ctx.constant(5, 32)),
          d = ctx.ult(z, ctx.constant(3, 32));
  MergeContext context{ctx};
  context.treeExact = false;
  ExecutionState first, second, third;
  first.constraints = {a, b, d};
  second.constraints = {a, ctx.lnot(b)};
  third.constraints = {ctx.lnot(a), d};
  std::vector<ExprRef> values = {ctx.constant(1, 32), ctx.constant(2, 32), ctx.constant(3, 32)};

  std::vector<ExecutionState *> pair = {&first, &third};
  auto two = createMergeEncoding(MergeEncodingKind::Disjunctive, ctx, context, pair);
  std::vector<ExprRef> pairValues = {values[0], values[2]};
  EXPECT_EQ(two->merge(pairValues), ctx.ite(a, values[0], values[2]));

  // The first state needs b against the second and a against the third; the second a alone.
  std::vector<ExecutionState *> all = {&first, &second, &third};
  auto three = createMergeEncoding(MergeEncodingKind::Disjunctive, ctx, context, all);
  EXPECT_EQ(three->merge(values),
            ctx.ite(ctx.land(ctx.land(ctx.trueExpr(), b), a), values[0], ctx.ite(a, values[1], values[2])));
}

TEST(DisjunctiveGuards, WithoutAPartingLiteralTheWholeSuffixGuards) {
  ExprContext ctx;
  auto var = [&](const char *name) { return ctx.symbol(ctx.declareSymbol(name, 32, SymbolClass::Input)); };
  ExprRef y = ctx.ult(var("y"), ctx.constant(5, 32)), z = ctx.ult(var("z"), ctx.constant(3, 32)),
          w = ctx.ult(var("w"), ctx.constant(7, 32));
  MergeContext context{ctx};
  context.treeExact = false;
  ExecutionState first, second;
  first.constraints = {y, w};
  second.constraints = {z};
  std::vector<ExecutionState *> group = {&first, &second};
  auto encoding = createMergeEncoding(MergeEncodingKind::Disjunctive, ctx, context, group);
  std::vector<ExprRef> values = {ctx.constant(1, 32), ctx.constant(2, 32)};
  EXPECT_EQ(encoding->merge(values), ctx.ite(ctx.land(ctx.land(ctx.trueExpr(), y), w), values[0], values[1]));
}

// T7 of state merging with quantifiers: get_sign (if (x == 0) return 0; if (x < 0) return -1;
// else return 1;) in the paper's numbering n1 (root), n2 (x = 0), n3 (x != 0), n4 (x < 0),
// n5 (!(x < 0)).
TEST(ExecutionTreeConditions, GetSign) {
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 32, SymbolClass::Input));
  ExprRef isZero = ctx.eq(x, ctx.constant(0, 32)), negative = ctx.slt(x, ctx.constant(0, 32));
  ExecutionTree tree(ctx);
  const uint32_t n1 = 0;
  auto [n2, n3] = tree.split(n1, isZero);
  auto [n4, n5] = tree.split(n3, negative);
  EXPECT_EQ(tree.pathCondition(n5, n5), ctx.lnot(negative));                                  // n5.c
  EXPECT_EQ(tree.pathCondition(n1, n5), ctx.land(ctx.lnot(isZero), ctx.lnot(negative)));      // n5.pc
  EXPECT_EQ(tree.pathCondition(n3, n5), ctx.land(ctx.lnot(isZero), ctx.lnot(negative)));      // tpc(n3, n5)
  EXPECT_EQ(tree.pathCondition(n3, n5, false), ctx.lnot(negative));                           // tpc̄(n3, n5)
  EXPECT_FALSE(tree.pathCondition(n2, n5));                                                   // not an ancestor
  // The merged conditions agree: n5 alone is its path; n4 and n5 together are n3's condition.
  std::vector<uint32_t> alone = {n5}, both = {n4, n5};
  EXPECT_EQ(TreeMerge(ctx, tree, alone).condition(), tree.pathCondition(n1, n5));
  EXPECT_EQ(TreeMerge(ctx, tree, both).condition(), ctx.lnot(isZero));
}

} // namespace
