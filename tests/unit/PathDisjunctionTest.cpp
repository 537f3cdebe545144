// Folding merged path conditions: the leaves of a fork subtree, merged in any order, give back
// the fork's own condition; paths that do not complete a subtree are left as they came.
#include "merging/PathDisjunction.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

#include <random>

using namespace cairn;
using namespace cairn::engine;

namespace {

class PathDisjunctionTest : public ::testing::Test {
protected:
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 8, SymbolClass::Input));
  ExprRef y = ctx.symbol(ctx.declareSymbol("y", 8, SymbolClass::Input));
  ExprRef z = ctx.ult(ctx.symbol(ctx.declareSymbol("z", 8, SymbolClass::Input)), ctx.constant(3, 8));
  // A digit loop's forks: x >= '0', then x <= '9'.
  ExprRef xLow = ctx.ule(c(48), x), xHigh = ctx.ule(x, c(57));
  ExprRef yLow = ctx.ule(c(48), y), yHigh = ctx.ule(y, c(57));

  ExprRef c(uint64_t v) { return ctx.constant(v, 8); }
  ExprRef no(const ExprRef &e) { return ctx.lnot(e); }
  ExprRef all(std::initializer_list<ExprRef> l) {
    ExprRef r = ctx.trueExpr();
    for (const ExprRef &e : l)
      r = ctx.land(r, e);
    return r;
  }
  // As a merge builds it: folded, or the plain disjunction where nothing folds.
  ExprRef disjoin(const std::vector<std::vector<ExprRef>> &paths) {
    if (ExprRef folded = foldedDisjunction(ctx, paths))
      return folded;
    ExprRef plain = ctx.falseExpr();
    for (const std::vector<ExprRef> &p : paths) {
      ExprRef conjunction = ctx.trueExpr();
      for (const ExprRef &l : p)
        conjunction = ctx.land(conjunction, l);
      plain = ctx.lor(plain, conjunction);
    }
    return plain;
  }
  bool equivalent(const ExprRef &a, const ExprRef &b) {
    std::unique_ptr<Solver> solver = createSolverChain(SolverChainOptions{});
    Answer<bool> same = solver->mustBeTrue({}, ctx.eq(a, b));
    return same.known() && *same;
  }
};

TEST_F(PathDisjunctionTest, SiblingsFoldIntoTheirForksCondition) {
  ExprRef d = foldedDisjunction(ctx, {{xLow, xHigh}, {xLow, no(xHigh)}});
  ASSERT_TRUE(d);
  EXPECT_EQ(d, xLow);
}

// The exits of a digit loop merged one at a time: not a digit, then a digit followed by y not
// a digit, then the rest. The first pair folds within itself; each later merge keeps the
// condition the earlier one built as one literal (spreading it folded this subtree to true
// but cost dynamic merging more than it saved), so the last merge leaves a nested disjunction
// that means what the fork's condition means.
TEST_F(PathDisjunctionTest, ASubtreeMergedInPairsKeepsEachEarlierConditionWhole) {
  ExprRef merged = disjoin({{no(xLow)}, {xLow, no(xHigh)}});
  EXPECT_TRUE(equivalent(merged, ctx.lor(no(xLow), no(xHigh))));
  EXPECT_FALSE(foldedDisjunction(ctx, {{merged}, {xLow, xHigh, no(yLow)}}));
  merged = disjoin({{merged}, {xLow, xHigh, no(yLow)}});
  merged = disjoin({{merged}, {xLow, xHigh, yLow, no(yHigh)}});
  merged = disjoin({{merged}, {xLow, xHigh, yLow, yHigh}});
  EXPECT_FALSE(merged->isTrue());
  EXPECT_TRUE(equivalent(merged, ctx.trueExpr()));
}

// A branch on a && b puts a & b on one side as one constraint and !(a & b) on the other.
TEST_F(PathDisjunctionTest, TheNegationOfAConjunctionFoldsWithIt) {
  ExprRef digit = ctx.land(xLow, xHigh);
  ExprRef d = foldedDisjunction(ctx, {{z, digit}, {z, no(digit)}});
  ASSERT_TRUE(d);
  EXPECT_EQ(d, z);
}

TEST_F(PathDisjunctionTest, PathsOutsideOneSubtreeAreLeftAsTheyCame) {
  EXPECT_FALSE(foldedDisjunction(ctx, {{xLow, yLow}, {no(xLow), no(yLow)}}));
  EXPECT_FALSE(foldedDisjunction(ctx, {{xLow, xHigh}, {yLow, no(xHigh)}}));
}

// States of different subtrees merged in pairs, as dynamic merging meets them: one path holds
// all of another's literals (the other adds nothing), or all but the negation of one of them
// (which it then needs no more).
TEST_F(PathDisjunctionTest, APathImpliedByAnotherGoesAndAnOppositeLiteralIsDropped) {
  EXPECT_EQ(foldedDisjunction(ctx, {{z, no(xLow)}, {z}}), z);
  EXPECT_EQ(foldedDisjunction(ctx, {{z}, {z, xLow, yHigh}, {z, no(yLow)}}), z);
  ExprRef d = foldedDisjunction(ctx, {{no(xLow)}, {xLow, xHigh, no(yLow)}});
  ASSERT_TRUE(d);
  EXPECT_TRUE(equivalent(d, disjoin({{no(xLow)}, {xHigh, no(yLow)}})));
  // The digit loop's exits merged out of order: each merge means the disjunction of its paths.
  ExprRef merged = disjoin({{xLow, xHigh, yLow, yHigh}, {no(xLow)}});
  EXPECT_TRUE(equivalent(merged, ctx.lor(no(xLow), all({xHigh, yLow, yHigh}))));
  merged = disjoin({{merged}, {xLow, xHigh, no(yLow)}});
  merged = disjoin({{merged}, {xLow, no(xHigh)}});
  EXPECT_FALSE(equivalent(merged, ctx.trueExpr()));
  merged = disjoin({{merged}, {xLow, xHigh, yLow, no(yHigh)}});
  EXPECT_TRUE(equivalent(merged, ctx.trueExpr()));
}

// Random disjunctions of paths over the loop's literals: the folded form means what it was
// given under every class of inputs (x and y below, among and above the digits; z true and
// false). Fails when a path is dropped that another does not imply.
TEST_F(PathDisjunctionTest, RandomDisjunctionsFoldToEquivalentForms) {
  const SymbolDecl *xs = x->symbol(), *ys = y->symbol(),
                   *zs = z->kid(0)->symbol();
  const std::vector<ExprRef> literals = {xLow, xHigh, yLow, yHigh, z};
  std::mt19937 rng(7);
  int folded = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::vector<ExprRef>> paths(1 + rng() % 5);
    for (std::vector<ExprRef> &p : paths)
      for (const ExprRef &l : literals)
        if (int pick = rng() % 3; pick)
          p.push_back(pick == 1 ? l : no(l));
    ExprRef plain = ctx.falseExpr();
    for (const std::vector<ExprRef> &p : paths)
      plain = ctx.lor(plain, disjoin({p}));
    ExprRef d = foldedDisjunction(ctx, paths);
    if (!d)
      continue;
    ++folded;
    for (uint64_t xv : {0, 50, 100})
      for (uint64_t yv : {0, 50, 100})
        for (uint64_t zv : {0, 5}) {
          Assignment a;
          a.setScalar(xs, xv);
          a.setScalar(ys, yv);
          a.setScalar(zs, zv);
          ASSERT_EQ(evaluatesTrue(d.get(), a), evaluatesTrue(plain.get(), a))
              << "round " << round << ": " << toString(plain.get()) << " folded to " << toString(d.get());
        }
  }
  EXPECT_GT(folded, 100);
}

// What folds and what stays, the result means the disjunction it was given.
TEST_F(PathDisjunctionTest, TheFoldedFormIsEquivalent) {
  std::vector<std::vector<ExprRef>> paths = {
      {z, xLow, xHigh}, {z, xLow, no(xHigh)}, {no(z), yLow}, {z, no(xLow), yHigh}};
  ExprRef folded = foldedDisjunction(ctx, paths);
  ASSERT_TRUE(folded);
  ExprRef plain = ctx.falseExpr();
  for (const std::vector<ExprRef> &p : paths)
    plain = ctx.lor(plain, disjoin({p}));
  EXPECT_TRUE(equivalent(folded, plain));
  EXPECT_NE(folded, plain);
}

} // namespace
