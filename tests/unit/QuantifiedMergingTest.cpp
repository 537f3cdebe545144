// The pieces of state merging with quantifiers that work on words and formulas alone: the
// condition hash with constants abstracted, the regular partition of leaves' words, and the
// synthesis of formula patterns, on memspn with chars = "a" and n <= 3 (the digest's §2.5,
// Table 6.1: T1's words, partitions and patterns).
#include "cairn/expr/Assignment.h"
#include "cairn/expr/Quantified.h"
#include "merging/quantified/FormulaPattern.h"
#include "merging/quantified/PathWords.h"
#include "merging/quantified/QuantifiedGroup.h"

#include <random>

#include <gtest/gtest.h>

using namespace cairn;
using namespace cairn::engine::quantified;

namespace {

struct QuantifiedMergingTest : ::testing::Test {
  ExprContext ctx;
  ExprRef s = ctx.symbol(ctx.declareArray("s", 3, 32, 8));
  ExprRef n = ctx.symbol(ctx.declareSymbol("n", 32, SymbolClass::Input));
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 32, SymbolClass::Input));
  ExprRef c(u128 v, unsigned w = 32) { return ctx.constant(v, w); }

  // memspn's conditions at count = j: G n > j, B s[j] = 97, Y its negation, R ¬(n > j).
  ExprRef G(u128 j) { return ctx.ugt(n, c(j)); }
  ExprRef B(u128 j) { return ctx.eq(ctx.select(s, c(j)), c(97, 8)); }
  ExprRef Y(u128 j) { return ctx.lnot(B(j)); }
  ExprRef R(u128 j) { return ctx.lnot(G(j)); }

  // The leaves' paths: k matches then a mismatch (n5, n9, n13), or k matches then count >= n
  // (n2, n6, n10, n14).
  std::vector<ExprRef> matches(unsigned k) {
    std::vector<ExprRef> p{ctx.trueExpr()};
    for (unsigned j = 0; j < k; ++j) {
      p.push_back(G(j));
      p.push_back(B(j));
    }
    return p;
  }
  std::vector<ExprRef> mismatchPath(unsigned k) {
    std::vector<ExprRef> p = matches(k);
    p.push_back(G(k));
    p.push_back(Y(k));
    return p;
  }
  std::vector<ExprRef> exhaustedPath(unsigned k) {
    std::vector<ExprRef> p = matches(k);
    p.push_back(R(k));
    return p;
  }
  static Word word(const std::vector<ExprRef> &path) {
    Word w;
    for (const ExprRef &e : path)
      w.push_back(conditionHash(e.get()));
    return w;
  }
};

TEST_F(QuantifiedMergingTest, ConstantsAreAbstractedAndNegationsHashApart) {
  // At 0 the simplifier writes n > 0 as ¬(0 = n) and ¬(n > 0) as 0 = n: they hash as the
  // comparisons they came from.
  EXPECT_EQ(toString(G(0).get()), "(not (eq 0:w32 n))");
  EXPECT_EQ(conditionHash(G(0).get()), conditionHash(G(2).get()));
  EXPECT_EQ(conditionHash(R(0).get()), conditionHash(R(2).get()));
  EXPECT_EQ(conditionHash(B(0).get()), conditionHash(B(1).get()));
  EXPECT_NE(conditionHash(G(0).get()), conditionHash(R(0).get()));
  EXPECT_NE(conditionHash(B(0).get()), conditionHash(Y(0).get()));
  EXPECT_NE(conditionHash(G(0).get()), conditionHash(B(0).get()));
  EXPECT_NE(conditionHash(ctx.ugt(x, c(0)).get()), conditionHash(G(0).get())); // another variable
}

TEST_F(QuantifiedMergingTest, MemspnLeavesFormTheTwoPartitionsOfTable61) {
  // Leaves in the order n5, n9, n13, n2, n6, n10, n14.
  std::vector<Word> words = {word(mismatchPath(0)),  word(mismatchPath(1)),  word(mismatchPath(2)),
                             word(exhaustedPath(0)), word(exhaustedPath(1)), word(exhaustedPath(2)),
                             word(exhaustedPath(3))};
  const uint64_t W = conditionHash(ctx.trueExpr().get()), g = conditionHash(G(0).get()),
                 b = conditionHash(B(0).get()), y = conditionHash(Y(0).get()), r = conditionHash(R(0).get());
  std::optional<std::vector<PatternGroup>> groups = regularPartition(words);
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 2u);
  // (W, GB, R) found first, by n10's and n14's squares; (W, GB, GY) by n13's.
  std::sort(groups->begin(), groups->end(), [](const auto &p, const auto &q) { return p.leaves[0] < q.leaves[0]; });
  const PatternGroup &mismatch = (*groups)[0], &exhausted = (*groups)[1];
  EXPECT_EQ(mismatch.prefix, (Word{W}));
  EXPECT_EQ(mismatch.core, (Word{g, b}));
  EXPECT_EQ(mismatch.suffix, (Word{g, y}));
  std::vector<std::pair<size_t, uint64_t>> members;
  for (size_t j = 0; j < mismatch.leaves.size(); ++j)
    members.emplace_back(mismatch.leaves[j], mismatch.counts[j]);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<std::pair<size_t, uint64_t>>{{0, 0}, {1, 1}, {2, 2}}));
  EXPECT_EQ(exhausted.prefix, (Word{W}));
  EXPECT_EQ(exhausted.core, (Word{g, b}));
  EXPECT_EQ(exhausted.suffix, (Word{r}));
  members.clear();
  for (size_t j = 0; j < exhausted.leaves.size(); ++j)
    members.emplace_back(exhausted.leaves[j], exhausted.counts[j]);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<std::pair<size_t, uint64_t>>{{3, 0}, {4, 1}, {5, 2}, {6, 3}}));

  // Scanned backwards the mismatch group's core is found one condition later: (W G, B G, Y).
  groups = regularPartition(words, true);
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 2u);
  bool sawShifted = false;
  for (const PatternGroup &p : *groups)
    if (p.suffix == Word{y}) {
      sawShifted = true;
      EXPECT_EQ(p.prefix, (Word{W, g}));
      EXPECT_EQ(p.core, (Word{b, g}));
      EXPECT_EQ(p.leaves.size(), 3u);
    }
  EXPECT_TRUE(sawShifted);

  // The limits: one pattern allowed, two needed.
  EXPECT_FALSE(regularPartition(words, false, PartitionLimits{20, 1}));
  // One word searched for its square: the mismatch pattern (from W GB GB GY); the other words
  // only join patterns, the exhausted ones after pairing W R with W GB R. The same partition.
  groups = regularPartition(words, false, PartitionLimits{1, 10});
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 2u);
  std::vector<std::pair<Word, size_t>> shapes;
  for (const PatternGroup &p : *groups)
    shapes.emplace_back(p.core, p.leaves.size());
  EXPECT_EQ(shapes, (std::vector<std::pair<Word, size_t>>{{Word{g, b}, 3}, {Word{g, b}, 4}}));
}

// A word whose own first square makes a pattern no other word has (G Y G Y: the mismatch tail
// repeats its letters) joins a pattern that generates it: ω1 ω2^0 ω3 of (ε, G M, G Y G Y).
TEST_F(QuantifiedMergingTest, AWordAloneInItsOwnPatternJoinsOneThatGeneratesIt) {
  const uint64_t G = 1, Y = 2, M = 3;
  std::optional<std::vector<PatternGroup>> groups =
      regularPartition({{G, Y, G, Y}, {G, M, G, Y, G, Y}, {G, M, G, M, G, Y, G, Y}});
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 1u);
  EXPECT_EQ((*groups)[0].core, (Word{G, M}));
  std::vector<std::pair<size_t, uint64_t>> members;
  for (size_t j = 0; j < (*groups)[0].leaves.size(); ++j)
    members.emplace_back((*groups)[0].leaves[j], (*groups)[0].counts[j]);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<std::pair<size_t, uint64_t>>{{0, 0}, {1, 1}, {2, 2}}));
}

TEST_F(QuantifiedMergingTest, WordsWithoutRepetitionPairOrStayAlone) {
  const uint64_t a = 1, b = 2, d = 3, e = 4;
  std::optional<std::vector<PatternGroup>> groups = regularPartition({{a, d}, {a, b, d}, {e}});
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 2u);
  EXPECT_EQ((*groups)[0].prefix, (Word{a}));
  EXPECT_EQ((*groups)[0].core, (Word{b}));
  EXPECT_EQ((*groups)[0].suffix, (Word{d}));
  EXPECT_EQ((*groups)[0].counts, (std::vector<uint64_t>{0, 1}));
  EXPECT_TRUE((*groups)[1].core.empty());
  EXPECT_EQ((*groups)[1].leaves, (std::vector<size_t>{2}));
}

TEST_F(QuantifiedMergingTest, FormulaPatternsOfTable61) {
  // φ2 from extract(W, WGB) = n > 0 ∧ s[0] = 97 at d = 1 and n > 1 ∧ s[1] = 97 at d = 2.
  std::vector<ExprRef> psi2 = {ctx.land(G(0), B(0)), ctx.land(G(1), B(1))};
  std::vector<uint64_t> d2 = {1, 2};
  std::optional<ExprRef> phi2 = synthesize(ctx, psi2, d2, x);
  ASSERT_TRUE(phi2);
  const ExprRef xMinus1 = ctx.sub(x, c(1));
  EXPECT_EQ(*phi2, ctx.land(ctx.ugt(n, xMinus1), ctx.eq(ctx.select(s, xMinus1), c(97, 8)))) << toString(phi2->get());
  EXPECT_EQ(substitute(ctx, *phi2, x.get(), c(3)), ctx.land(G(2), B(2)));

  // φ3 at the k of the leaves, 0, 1, 2: n > x ∧ ¬s[x] = 97.
  std::vector<ExprRef> psi3 = {ctx.land(G(0), Y(0)), ctx.land(G(1), Y(1)), ctx.land(G(2), Y(2))};
  std::vector<uint64_t> d3 = {0, 1, 2};
  std::optional<ExprRef> phi3 = synthesize(ctx, psi3, d3, x);
  ASSERT_TRUE(phi3);
  EXPECT_EQ(*phi3, ctx.land(ctx.ugt(n, x), ctx.lnot(ctx.eq(ctx.select(s, x), c(97, 8))))) << toString(phi3->get());

  // Values: count is k (t(x) = x); p is chars + 1 on every leaf (no x).
  std::vector<ExprRef> counts = {c(0), c(1), c(2)};
  EXPECT_EQ(synthesize(ctx, counts, d3, x), std::optional<ExprRef>(x));
  ExprRef chars = ctx.symbol(ctx.declareSymbol("chars", 64, SymbolClass::Input));
  std::vector<ExprRef> ps(3, ctx.add(chars, c(1, 64)));
  EXPECT_EQ(synthesize(ctx, ps, d3, x), std::optional<ExprRef>(ps[0]));
  // A decreasing progression wraps as the bit-vectors do: 5 - 2x.
  std::vector<ExprRef> down = {c(5), c(3), c(1)};
  std::optional<ExprRef> t = synthesize(ctx, down, d3, x);
  ASSERT_TRUE(t);
  EXPECT_EQ(substitute(ctx, *t, x.get(), c(3)), c(u128(0xffffffff)));
}

TEST_F(QuantifiedMergingTest, NoPatternWhereTheInstancesDoNotFitOne) {
  std::vector<uint64_t> d = {0, 1, 2};
  // Not on a line.
  std::vector<ExprRef> squares = {c(0), c(1), c(4)};
  EXPECT_FALSE(synthesize(ctx, squares, d, x));
  // Two positions, one on a line and one not.
  std::vector<ExprRef> two = {ctx.land(G(0), B(0)), ctx.land(G(1), B(2)), ctx.land(G(2), B(5))};
  EXPECT_FALSE(synthesize(ctx, two, d, x));
  // Shapes that differ beyond a constant.
  std::vector<ExprRef> shapes = {G(0), B(1), G(2)};
  EXPECT_FALSE(synthesize(ctx, shapes, d, x));
}

// Each varying position has a line of its own: one iteration's conditions can name s[x] and
// s[x - 1] (the strchr loop tests s[i] for 'a' and for 0, and its bounds check i + 1 <= n).
TEST_F(QuantifiedMergingTest, EachVaryingPositionHasItsOwnLine) {
  std::vector<uint64_t> d = {1, 2, 3};
  std::vector<ExprRef> two = {ctx.land(G(0), B(2)), ctx.land(G(1), B(4)), ctx.land(G(2), B(6))};
  std::optional<ExprRef> phi = synthesize(ctx, two, d, x);
  ASSERT_TRUE(phi);
  for (size_t l = 0; l < d.size(); ++l)
    EXPECT_EQ(substitute(ctx, *phi, x.get(), c(d[l])), two[l]) << toString(phi->get());
  // Between the points φ is the lines' value: G(x - 1) ∧ B(2x) at x = 5.
  EXPECT_EQ(substitute(ctx, *phi, x.get(), c(5)), ctx.land(G(4), B(10))) << toString(phi->get());
}

// Hash-consing shares one node for equal constants: here 0:w64 is both the varying index of s
// and the fixed index of n's lowest byte, and 0:w32 both the varying bound and m's fixed
// comparand. The pattern replaces the varying positions only.
TEST_F(QuantifiedMergingTest, ASharedConstantNodeVariesAtOnePositionOnly) {
  ExprRef m = ctx.symbol(ctx.declareSymbol("m", 32, SymbolClass::Input));
  ExprRef bytes = ctx.symbol(ctx.declareArray("b", 4, 64, 8));
  ExprRef other = ctx.symbol(ctx.declareArray("o", 4, 64, 8));
  auto instance = [&](u128 j) {
    return ctx.land(ctx.land(G(j), ctx.ne(m, c(0))),
                    ctx.eq(ctx.select(bytes, c(j, 64)), ctx.select(other, c(0, 64))));
  };
  std::vector<ExprRef> shared = {instance(0), instance(1), instance(2)};
  std::vector<uint64_t> d = {0, 1, 2};
  EXPECT_EQ(toString(shared[0].get()).find("(eq 0:w32 m)") != std::string::npos, true) << toString(shared[0].get());
  std::optional<ExprRef> p = synthesize(ctx, shared, d, x);
  ASSERT_TRUE(p);
  for (size_t l = 0; l < d.size(); ++l)
    EXPECT_EQ(substitute(ctx, *p, x.get(), c(d[l])), shared[l]);
  EXPECT_EQ(substitute(ctx, *p, x.get(), c(3)), instance(3));
}

// Def. 6.2.6 on the mismatch group of T1, and Theorem 6.2.7 by evaluation: under the merged
// condition with k = k_j exactly the assignments of leaf j's path hold, and count's merged
// value is k_j there; no k makes it hold outside the group's paths.
TEST_F(QuantifiedMergingTest, TheMergedStateOfTable61AgreesWithTheStandardMerge) {
  std::vector<std::vector<ExprRef>> paths = {mismatchPath(0), mismatchPath(1), mismatchPath(2)};
  std::vector<Word> words;
  for (const auto &p : paths)
    words.push_back(word(p));
  std::optional<std::vector<PatternGroup>> groups = regularPartition(words);
  ASSERT_TRUE(groups);
  ASSERT_EQ(groups->size(), 1u);
  const PatternGroup &g = groups->front();
  std::vector<std::vector<ExprRef>> ordered;
  for (size_t leaf : g.leaves)
    ordered.push_back(paths[leaf]);
  ExprRef k = ctx.symbol(ctx.declareSymbol("k", 32, SymbolClass::Input));
  ExprRef i = ctx.symbol(ctx.declareSymbol("i", 32, SymbolClass::Bound));
  std::optional<QuantifiedGroup> merged = QuantifiedGroup::build(ctx, g, ordered, k, i, x);
  ASSERT_TRUE(merged);
  // 0 <= k <= 2 ∧ ∀i. 1 <= i <= k → n > i-1 ∧ s[i-1] = 97 ∧ n > k ∧ ¬s[k] = 97
  const ExprRef iMinus1 = ctx.sub(i, c(1));
  const ExprRef expected =
      ctx.land(ctx.land(ctx.ule(k, c(2)), boundedForall(ctx, i, k, ctx.land(ctx.ugt(n, iMinus1), ctx.eq(ctx.select(s, iMinus1), c(97, 8))))),
               ctx.land(ctx.ugt(n, k), ctx.lnot(ctx.eq(ctx.select(s, k), c(97, 8)))));
  EXPECT_EQ(merged->condition(), expected) << toString(merged->condition().get());
  std::vector<ExprRef> counts;
  for (uint64_t kj : g.counts)
    counts.push_back(c(kj));
  ASSERT_EQ(merged->value(counts), std::optional<ExprRef>(k));

  std::mt19937 rng(7);
  const u128 letters[] = {0, 97, 98};
  for (int round = 0; round < 2000; ++round) {
    Assignment a;
    a.setScalar(n->symbol(), rng() % 5);
    a.setArray(s->symbol(), {letters[rng() % 3], letters[rng() % 3], letters[rng() % 3]});
    for (size_t j = 0; j < g.leaves.size(); ++j) {
      ExprRef whole = ctx.trueExpr();
      for (const ExprRef &cond : ordered[j])
        whole = ctx.land(whole, cond);
      a.setScalar(k->symbol(), g.counts[j]);
      const bool onPath = evaluatesTrue(whole.get(), a);
      EXPECT_EQ(evaluatesTrue(merged->condition().get(), a), onPath) << "round " << round << " leaf " << j;
    }
    for (uint64_t other : {3u, 4u, 7u}) { // k outside the group's counts
      a.setScalar(k->symbol(), other);
      EXPECT_FALSE(evaluatesTrue(merged->condition().get(), a));
    }
  }
}

} // namespace
