// The solving procedure for bounded universals (state merging with quantifiers, the thesis'
// Algorithm 7) on the worked example of ../shared/papers/digests/quantified_state_merging.md
// §2.8 (T5):  φ = s[n] = 0 ∧ 1 ≤ k ≤ 10 ∧ s[k-1] = 8 ∧ ∀i. 1 ≤ i ≤ k → s[i-1] ≠ 0.
#include "cairn/expr/Quantified.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/SolverChain.h"
#include "quantified/QuantifiedQuery.h"

#include <gtest/gtest.h>

using namespace cairn;
using namespace cairn::quantified;

namespace {

struct QuantifiedSolverTest : ::testing::Test {
  ExprContext ctx;
  const SymbolDecl *sDecl = ctx.declareArray("s", 8, 32, 8);
  ExprRef s = ctx.symbol(sDecl);
  ExprRef n = ctx.symbol(ctx.declareSymbol("n", 32, SymbolClass::Input));
  ExprRef k = ctx.symbol(ctx.declareSymbol("k", 32, SymbolClass::Input));
  ExprRef i = ctx.symbol(ctx.declareSymbol("i", 32, SymbolClass::Bound));

  ExprRef c(u128 v, unsigned w = 32) { return ctx.constant(v, w); }
  ExprRef at(const ExprRef &index) { return ctx.select(s, index); }
  ExprRef body() { return ctx.ne(at(ctx.sub(i, c(1))), c(0, 8)); } // s[i-1] != 0

  std::vector<ExprRef> example() {
    return {ctx.eq(at(n), c(0, 8)), ctx.ule(c(1), k), ctx.ule(k, c(10)), ctx.eq(at(ctx.sub(k, c(1))), c(8, 8)),
            boundedForall(ctx, i, k, body())};
  }
  Assignment model(uint64_t nv, uint64_t kv, std::vector<u128> sv) {
    Assignment m;
    m.setScalar(n->symbol(), nv);
    m.setScalar(k->symbol(), kv);
    m.setArray(sDecl, std::move(sv));
    return m;
  }
  static bool all(const std::vector<ExprRef> &cs, const Assignment &m) {
    for (const ExprRef &e : cs)
      if (!evaluatesTrue(e.get(), m))
        return false;
    return true;
  }
};

TEST_F(QuantifiedSolverTest, BoundedUniversalsAreRecognisedAndEvaluatedOnTheirInstances) {
  ExprRef f = boundedForall(ctx, i, k, body());
  std::optional<BoundedForall> parts = asBoundedForall(f.get());
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->bound, i);
  EXPECT_EQ(parts->count, k);
  EXPECT_EQ(parts->body, body());
  EXPECT_FALSE(asBoundedForall(ctx.forall(i, body()).get())); // unbounded: not this shape
  // A 32-bit bound variable: evaluated on 1..k only.
  EXPECT_TRUE(evaluatesTrue(f.get(), model(0, 3, {5, 6, 7, 0})));
  EXPECT_FALSE(evaluatesTrue(f.get(), model(0, 4, {5, 6, 7, 0})));
  EXPECT_TRUE(evaluatesTrue(f.get(), model(0, 0, {0})));
}

TEST_F(QuantifiedSolverTest, StripAddsTheFirstInstanceAndExcludesNegatedInstances) {
  std::optional<QuantifiedQuery> q = QuantifiedQuery::of(Query(example(), ctx.trueExpr()));
  ASSERT_TRUE(q);
  const std::vector<ExprRef> stripped = q->strip();
  // The four quantifier-free clauses, k ≥ 1 → s[0] ≠ 0, and ¬(1 ≤ n+1 ≤ k) from s[n] = 0.
  ASSERT_EQ(stripped.size(), 6u);
  EXPECT_EQ(stripped[4], ctx.implies(ctx.uge(k, c(1)), ctx.ne(at(c(0)), c(0, 8))));
  // The exclusion, by its values: n + 1 inside [1, k] is refused, outside it is not.
  EXPECT_FALSE(evaluatesTrue(stripped[5].get(), model(2, 7, {1})));
  EXPECT_TRUE(evaluatesTrue(stripped[5].get(), model(7, 7, {1})));
  EXPECT_TRUE(evaluatesTrue(stripped[5].get(), model(0xffffffff, 7, {1}))); // n + 1 wraps to 0
  // The paper's model of strip(φ), which is no model of φ.
  Assignment m = model(7, 7, {1, 0, 0, 0, 0, 0, 8, 0});
  EXPECT_TRUE(all(stripped, m));
  EXPECT_FALSE(q->satisfiedBy(m));
}

TEST_F(QuantifiedSolverTest, DuplicateAndRepairAsInTheWorkedExample) {
  std::optional<QuantifiedQuery> q = QuantifiedQuery::of(Query(example(), ctx.trueExpr()));
  ASSERT_TRUE(q);
  Assignment m = model(7, 7, {1, 0, 0, 0, 0, 0, 8, 0});
  q->duplicate(m, {});
  EXPECT_EQ(*m.array(sDecl), (std::vector<u128>{1, 1, 1, 1, 1, 1, 1, 0}));
  EXPECT_FALSE(q->satisfiedBy(m)); // s[k-1] = 8 broken

  std::optional<QuantifiedQuery::Repair> repair = q->repair(m);
  ASSERT_TRUE(repair);
  EXPECT_EQ(repair->conflicts, (Cells{{sDecl, 6}}));
  auto has = [&](const ExprRef &e) {
    return std::find(repair->constraints.begin(), repair->constraints.end(), e) != repair->constraints.end();
  };
  EXPECT_TRUE(has(ctx.ne(at(c(6)), c(0, 8)))); // ψ[7/i]
  EXPECT_TRUE(has(ctx.eq(n, c(7))));
  EXPECT_TRUE(has(ctx.eq(k, c(7))));

  std::unique_ptr<Solver> z3 = createZ3Solver(10);
  SolverResponse r = z3->check(Query(repair->constraints, ctx.trueExpr(), {s}), true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  q->duplicate(r.model, repair->conflicts);
  ASSERT_TRUE(q->satisfiedBy(r.model));
  const std::vector<u128> &cells = *r.model.array(sDecl);
  EXPECT_EQ(cells[6], 8u); // the conflict cell kept its own value
  EXPECT_EQ(cells[7], 0u);
  for (unsigned j = 1; j < 6; ++j)
    EXPECT_EQ(cells[j], cells[0]) << j; // the rest duplicated from instance 1
}

uint64_t counter(const std::vector<SolverLayerStats> &stats, const std::string &name) {
  for (const auto &[key, value] : stats[0].counters)
    if (key == name)
      return value;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// A merged condition at one leaf's k (what --validate-merges compares with the leaf's path):
// k replaced, its universal written out, a universal over another count left alone.
TEST_F(QuantifiedSolverTest, InstantiateWritesOutTheUniversalOfOneCount) {
  ExprRef other = ctx.symbol(ctx.declareSymbol("k2", 32, SymbolClass::Input));
  ExprRef phi = ctx.land(ctx.land(ctx.ule(k, c(5)), boundedForall(ctx, i, k, body())),
                         ctx.land(ctx.eq(at(k), c(97, 8)), boundedForall(ctx, i, other, body())));
  ExprRef at3 = instantiate(ctx, phi, k.get(), 3);
  ExprRef expected = ctx.land(ctx.land(ctx.land(ctx.ne(at(c(0)), c(0, 8)), ctx.ne(at(c(1)), c(0, 8))), ctx.ne(at(c(2)), c(0, 8))),
                              ctx.land(ctx.eq(at(c(3)), c(97, 8)), boundedForall(ctx, i, other, body())));
  std::unique_ptr<Solver> z3 = createZ3Solver(10);
  EXPECT_EQ(z3->check(Query({}, ctx.lnot(ctx.eq(at3, expected))), false).result, SatResult::Unsat) << toString(at3.get());
  EXPECT_FALSE(mentions(at3.get(), k.get()));
  // k = 0: no instance.
  EXPECT_EQ(z3->check(Query({}, ctx.lnot(ctx.eq(instantiate(ctx, phi, k.get(), 0),
                                                 ctx.land(ctx.eq(at(c(0)), c(97, 8)), boundedForall(ctx, i, other, body()))))),
                      false).result,
            SatResult::Unsat);
}

// A body that compares the bound variable with another term as the guard does (the bounds
// check i <= n of a read s[i]) is still recognised with k as its count.
TEST_F(QuantifiedSolverTest, ABodyComparingTheBoundVariableKeepsItsCount) {
  ExprRef withinN = ctx.land(ctx.ule(i, n), body());
  ExprRef f = boundedForall(ctx, i, k, withinN);
  std::optional<BoundedForall> parts = asBoundedForall(f.get());
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->count, k);
  EXPECT_EQ(parts->body, withinN);
  std::optional<QuantifiedQuery> q = QuantifiedQuery::of(Query({f}, ctx.trueExpr()));
  ASSERT_TRUE(q);
  EXPECT_EQ(q->universals(), 1u);
}

// Reads through a store (the string's terminator written after it was made symbolic) are reads
// of the array symbol: duplicate copies instance 1's cell to the others, and the store still
// decides its own cell.
TEST_F(QuantifiedSolverTest, DuplicateReadsThroughStores) {
  ExprRef terminated = ctx.store(s, n, c(0, 8));
  ExprRef f = boundedForall(ctx, i, k, ctx.ne(ctx.select(terminated, ctx.sub(i, c(1))), c(0, 8)));
  std::optional<QuantifiedQuery> q = QuantifiedQuery::of(Query({ctx.ult(k, n), f}, ctx.trueExpr()));
  ASSERT_TRUE(q);
  Assignment m = model(5, 4, {3, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_FALSE(q->satisfiedBy(m));
  q->duplicate(m, {});
  EXPECT_EQ(*m.array(sDecl), (std::vector<u128>{3, 3, 3, 3, 0, 0, 0, 0}));
  EXPECT_TRUE(q->satisfiedBy(m));
  std::unique_ptr<Solver> solver = createQuantifiedSolver(createZ3Solver(20));
  SolverResponse r = solver->check(Query({ctx.ule(c(3), k), ctx.ult(k, n), ctx.ult(n, c(8)), f}, ctx.trueExpr(), {s}), true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  std::vector<SolverLayerStats> stats;
  solver->collectStats(stats);
  EXPECT_EQ(counter(stats, "fallback"), 0u);
}

TEST_F(QuantifiedSolverTest, TheLayerAnswersWithCheckedModelsAndRefutesByStrip) {
  std::unique_ptr<Solver> solver = createQuantifiedSolver(createZ3Solver(20));
  const std::vector<ExprRef> phi = example();
  SolverResponse r = solver->check(Query(phi, ctx.trueExpr(), {s}), true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_TRUE(all(phi, r.model)); // every instance up to k, by evaluation
  // Z3 with the quantifier agrees.
  EXPECT_EQ(createZ3Solver(20)->check(Query(phi, ctx.trueExpr()), false).result, SatResult::Sat);

  // UNSAT from strip alone: k ≥ 1, s[0] = 0 and ∀i. 1 ≤ i ≤ k → s[i-1] ≠ 0.
  SolverResponse u = solver->check(
      Query({ctx.ule(c(1), k), ctx.eq(at(c(0)), c(0, 8)), boundedForall(ctx, i, k, body())}, ctx.trueExpr()), false);
  EXPECT_EQ(u.result, SatResult::Unsat);

  // Too many instances to check a model: the core decides with the quantifier.
  SolverResponse f = solver->check(Query({ctx.ule(c(100000), k), boundedForall(ctx, i, k, body())}, ctx.trueExpr()), false);
  EXPECT_NE(f.result, SatResult::Unsat) << f.reason;

  std::vector<SolverLayerStats> stats;
  solver->collectStats(stats);
  ASSERT_EQ(stats[0].layer, "quantified");
  EXPECT_EQ(counter(stats, "quantified_queries"), 3u);
  EXPECT_EQ(counter(stats, "unsat_by_strip"), 1u);
  EXPECT_EQ(counter(stats, "sat_by_strip") + counter(stats, "sat_by_duplicate") + counter(stats, "sat_by_repair"), 1u);
  EXPECT_EQ(counter(stats, "fallback"), 1u);

  // A query without a universal passes through.
  EXPECT_EQ(solver->check(Query({ctx.eq(n, c(3))}, ctx.trueExpr()), false).result, SatResult::Sat);
  stats.clear();
  solver->collectStats(stats);
  EXPECT_EQ(counter(stats, "quantified_queries"), 3u);
}

} // namespace
