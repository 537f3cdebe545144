// The chain in front of the backends: independence slicing, the query cache and the
// counterexample cache give the bare backend's answers, with the hits they should have.
#include "cairn/solver/Backends.h"
#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

#include <random>

using namespace cairn;

namespace {

// Forwards to Z3 and remembers what reached it.
class RecordingSolver final : public Solver {
public:
  std::vector<Query> seen;
  std::unique_ptr<Solver> z3 = createZ3Solver(10);

  SolverResponse check(const Query &q, bool wantModel) override {
    seen.push_back(q);
    return z3->check(q, wantModel);
  }
  std::string name() const override { return "recording"; }
  void collectStats(std::vector<SolverLayerStats> &out) const override {
    out.push_back({"recording", seen.size(), 0, 0, 0, {}});
  }
  void setTimeout(double) override {}
};

struct Fixture : ::testing::Test {
  ExprContext ctx;
  ExprRef input = ctx.symbol(ctx.declareArray("input", 8));
  ExprRef byte(unsigned i) { return ctx.select(input, ctx.constant(i, 32)); }
  ExprRef c8(unsigned v) { return ctx.constant(v, 8); }

  uint64_t answeredBy(Solver &s, const std::string &layer) {
    std::vector<SolverLayerStats> stats;
    s.collectStats(stats);
    for (const SolverLayerStats &l : stats)
      if (l.layer == layer)
        return l.answered;
    ADD_FAILURE() << "no layer " << layer;
    return 0;
  }
};

TEST_F(Fixture, IndependenceDropsConstraintsOnOtherBytes) {
  auto rec = std::make_unique<RecordingSolver>();
  RecordingSolver *recorder = rec.get();
  auto solver = createIndependentSolver(std::move(rec));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10)), ctx.eq(byte(2), byte(3)),
                             ctx.ult(byte(3), c8(5))};
  Answer<bool> r = solver->mayBeTrue(pc, ctx.eq(byte(2), c8(4)));
  ASSERT_TRUE(r.known());
  EXPECT_TRUE(*r);
  ASSERT_EQ(recorder->seen.size(), 1u);
  // byte 2 links to byte 3 through the equality; byte 0 is independent.
  EXPECT_EQ(recorder->seen[0].constraints.size(), 2u);
  Answer<bool> r2 = solver->mayBeTrue(pc, ctx.eq(byte(2), c8(7)));
  ASSERT_TRUE(r2.known());
  EXPECT_FALSE(*r2); // byte2 == byte3 < 5
}

TEST_F(Fixture, IndependenceKeepsEverythingForASymbolicIndex) {
  auto rec = std::make_unique<RecordingSolver>();
  RecordingSolver *recorder = rec.get();
  auto solver = createIndependentSolver(std::move(rec));
  ExprRef i = ctx.symbol(ctx.declareSymbol("i", 32, SymbolClass::Input));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10)), ctx.ult(byte(5), c8(3)),
                             ctx.ult(i, ctx.constant(8, 32))};
  solver->mayBeTrue(pc, ctx.eq(ctx.select(input, i), c8(200)));
  ASSERT_EQ(recorder->seen.size(), 1u);
  EXPECT_EQ(recorder->seen[0].constraints.size(), 3u);
}

TEST_F(Fixture, QueryCacheAnswersRepeats) {
  auto solver = createQueryCachingSolver(createZ3Solver(10));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10))};
  for (int i = 0; i < 3; ++i) {
    Answer<bool> r = solver->mayBeTrue(pc, ctx.eq(byte(0), c8(3)));
    ASSERT_TRUE(r.known());
    EXPECT_TRUE(*r);
  }
  EXPECT_EQ(answeredBy(*solver, "query-cache"), 2u);
  // The constraint order does not matter.
  std::vector<ExprRef> pc2 = {ctx.ult(byte(1), c8(10)), ctx.ult(byte(0), c8(10))};
  std::vector<ExprRef> pc3 = {pc2[1], pc2[0]};
  solver->mayBeTrue(pc2, ctx.eq(byte(0), c8(3)));
  solver->mayBeTrue(pc3, ctx.eq(byte(0), c8(3)));
  EXPECT_EQ(answeredBy(*solver, "query-cache"), 3u);
}

TEST_F(Fixture, CexCacheReusesSupersetModelsAndSubsetUnsat) {
  auto rec = std::make_unique<RecordingSolver>();
  RecordingSolver *recorder = rec.get();
  auto solver = createCexCachingSolver(std::move(rec));
  ExprRef a = ctx.ult(byte(0), c8(10)), b = ctx.ult(c8(3), byte(0));
  // {a, b} is sat: its model answers the subset {a} with no solver call.
  Answer<bool> r1 = solver->mayBeTrue({a}, b);
  ASSERT_TRUE(r1.known() && *r1);
  Answer<bool> r2 = solver->mayBeTrue({}, a);
  ASSERT_TRUE(r2.known() && *r2);
  EXPECT_EQ(recorder->seen.size(), 1u);
  // {a, !a'} is unsat (byte0 < 10 and byte0 > 20): every superset is unsat too.
  ExprRef big = ctx.ult(c8(20), byte(0));
  Answer<bool> r3 = solver->mayBeTrue({a}, big);
  ASSERT_TRUE(r3.known());
  EXPECT_FALSE(*r3);
  Answer<bool> r4 = solver->mayBeTrue({a, big}, ctx.eq(byte(1), c8(1)));
  ASSERT_TRUE(r4.known());
  EXPECT_FALSE(*r4);
  EXPECT_EQ(recorder->seen.size(), 2u);
  // A cached model that happens to satisfy a new set answers it: byte0 in (3,10) from r1's
  // model also satisfies byte0 != 200.
  Answer<bool> r5 = solver->mayBeTrue({a, b}, ctx.ne(byte(0), c8(200)));
  ASSERT_TRUE(r5.known() && *r5);
  EXPECT_EQ(recorder->seen.size(), 2u);
  EXPECT_EQ(answeredBy(*solver, "cex-cache"), 3u);
}

TEST_F(Fixture, CexCacheModelsSatisfyTheQuery) {
  auto solver = createCexCachingSolver(createZ3Solver(10));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10)), ctx.ult(c8(3), byte(0))};
  for (int i = 0; i < 2; ++i) { // the second answer comes from the cache
    Answer<Assignment> m = solver->getInitialValues(pc, {input});
    ASSERT_TRUE(m.known());
    u128 v = m->element(input->symbol(), 0);
    EXPECT_TRUE(v > 3 && v < 10);
    ASSERT_NE(m->array(input->symbol()), nullptr);
    EXPECT_EQ(m->array(input->symbol())->size(), 8u);
  }
  EXPECT_EQ(answeredBy(*solver, "cex-cache"), 1u);
}

// A merged state's path condition: a prefix and the disjunction of two paths' suffixes. Its
// model comes from one disjunct, through the cache that saw that path's query; an unsatisfiable
// first disjunct has the next one tried, and the model still satisfies the whole.
TEST_F(Fixture, DisjunctSplitAnswersAMergedPathFromOneOfItsPaths) {
  auto solver = createDisjunctSplitSolver(createCexCachingSolver(createZ3Solver(10)));
  ExprRef prefix = ctx.ult(byte(1), c8(100));
  ExprRef low = ctx.ult(byte(0), c8(10)), high = ctx.lnot(low);
  ExprRef left = ctx.land(low, ctx.ult(c8(3), byte(0)));
  ExprRef right = ctx.land(high, ctx.ult(byte(2), c8(7)));
  for (const ExprRef &path : {left, right}) // each path's own test, before the merge
    ASSERT_TRUE(solver->getInitialValues(std::vector<ExprRef>{prefix, path->kid(0), path->kid(1)}, {input}).known());
  const uint64_t cachedBefore = answeredBy(*solver, "cex-cache");
  ExprRef either = ctx.lor(left, right);
  Answer<Assignment> m = solver->getInitialValues(std::vector<ExprRef>{prefix, either}, {input});
  ASSERT_TRUE(m.known());
  EXPECT_TRUE(evaluatesTrue(ctx.land(prefix, either).get(), *m));
  EXPECT_EQ(answeredBy(*solver, "disjunct-split"), 1u);
  EXPECT_EQ(answeredBy(*solver, "cex-cache"), cachedBefore + 1) << "the narrowed query is a path seen before";
  // A prefix that contradicts the disjunct tried first: the second answers.
  ExprRef against = either->kid(0) == left.get() ? high : low;
  Answer<Assignment> n = solver->getInitialValues(std::vector<ExprRef>{against, either}, {input});
  ASSERT_TRUE(n.known());
  EXPECT_TRUE(evaluatesTrue(ctx.land(against, either).get(), *n));
  EXPECT_EQ(answeredBy(*solver, "disjunct-split"), 2u);
}

// A branch on a merged state: whether it is feasible is asked without a model, and a disjunct
// that allows it answers (the disjuncts tried before it do not). Of six paths, each allowing
// one value of byte 0, the first answers for its value; for the others the disjuncts whose
// literals leave byte 0 no value the branch allows are passed over without a query, and the
// one that allows it answers. Where every disjunct was passed over or tried and none is
// satisfiable, the query is not: no whole query then.
TEST_F(Fixture, DisjunctSplitDecidesABranchOfAMergedPath) {
  auto recording = std::make_unique<RecordingSolver>();
  RecordingSolver &core = *recording;
  auto solver = createDisjunctSplitSolver(std::move(recording));
  ExprRef paths = ctx.falseExpr();
  for (uint8_t k = 0; k < 6; ++k)
    paths = ctx.lor(paths, ctx.land(ctx.eq(byte(0), c8(k)), ctx.ult(byte(1), c8(10 + k))));
  for (uint8_t k = 0; k < 6; ++k)
    EXPECT_EQ(solver->check(Query({paths}, ctx.eq(byte(0), c8(k))), false).result, SatResult::Sat) << int(k);
  EXPECT_EQ(answeredBy(*solver, "disjunct-split"), 6u);
  for (const Query &q : core.seen)
    EXPECT_EQ(q.constraints.size(), 2u) << "only narrowed queries: one path's two literals";
  EXPECT_EQ(solver->check(Query({paths}, ctx.eq(byte(0), c8(9))), false).result, SatResult::Unsat);
  EXPECT_EQ(answeredBy(*solver, "disjunct-split"), 7u) << "every disjunct rules out byte 0 = 9";
  // Three paths, none allowing the value: each tried, each unsatisfiable, so is the whole.
  ExprRef three = ctx.lor(ctx.lor(ctx.eq(byte(0), c8(1)), ctx.eq(byte(0), c8(2))), ctx.eq(byte(0), c8(3)));
  EXPECT_EQ(solver->check(Query({three}, ctx.eq(byte(0), c8(9))), false).result, SatResult::Unsat);
  EXPECT_EQ(answeredBy(*solver, "disjunct-split"), 8u);
}

// "May a && b hold?" where a and b read different bytes: each with its own constraints is a
// query of its own, as is each independent part of a query that only asks whether its
// constraints hold together.
TEST_F(Fixture, IndependenceAsksAConjunctionsIndependentConjunctsApart) {
  auto rec = std::make_unique<RecordingSolver>();
  RecordingSolver *recorder = rec.get();
  auto solver = createIndependentSolver(std::move(rec));
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10)), ctx.ult(byte(1), c8(20))};
  ExprRef both = ctx.land(ctx.eq(byte(0), c8(4)), ctx.eq(byte(1), c8(30)));
  EXPECT_EQ(solver->check(Query(pc, both), false).result, SatResult::Unsat);
  EXPECT_EQ(solver->check(Query(pc, ctx.land(ctx.eq(byte(0), c8(4)), ctx.eq(byte(1), c8(15)))), false).result,
            SatResult::Sat);
  auto reads = [](const Query &q, unsigned i) {
    const std::string select = "(select input " + std::to_string(i) + ":w32)";
    bool any = toString(q.expr.get()).find(select) != std::string::npos;
    for (const ExprRef &c : q.constraints)
      any |= toString(c.get()).find(select) != std::string::npos;
    return any;
  };
  for (const Query &q : recorder->seen)
    EXPECT_NE(reads(q, 0), reads(q, 1)) << "one byte a query";
  EXPECT_GE(recorder->seen.size(), 3u); // the first query's parts until one is unsatisfiable, the second's two
  recorder->seen.clear();
  std::vector<ExprRef> apart = {ctx.ult(byte(0), c8(10)), ctx.ult(byte(1), c8(20)), ctx.eq(byte(2), byte(3))};
  EXPECT_EQ(solver->check(Query(apart, ctx.trueExpr()), false).result, SatResult::Sat);
  ASSERT_EQ(recorder->seen.size(), 3u);
  EXPECT_EQ(recorder->seen[2].constraints.size(), 1u);
}

// A branch on a value merged from two states, ite(the first's path, its condition, the
// other's), under the merged path condition: decided case by case, each case's condition
// with what its constraints already decide taken out, so that no query below holds the choice
// or the merged condition whole. The answers are those of the whole query.
TEST_F(Fixture, DisjunctSplitDecidesABranchOnAMergedValueCaseByCase) {
  auto rec = std::make_unique<RecordingSolver>();
  RecordingSolver *recorder = rec.get();
  auto solver = createDisjunctSplitSolver(std::move(rec));
  std::unique_ptr<Solver> bare = createZ3Solver(10);
  ExprRef digit0 = ctx.land(ctx.ule(c8(48), byte(0)), ctx.ule(byte(0), c8(57)));
  ExprRef digit1 = ctx.land(ctx.ule(c8(48), byte(1)), ctx.ule(byte(1), c8(57)));
  // The first state read a digit at 0 and then none at 1; the other none at 0.
  ExprRef first = ctx.land(digit0, ctx.lnot(digit1)), other = ctx.lnot(digit0);
  ExprRef merged = ctx.lor(first, other);
  // Its `&&` value: the first state's is whether byte 2 is a digit, the other's false.
  ExprRef digit2 = ctx.land(ctx.ule(c8(48), byte(2)), ctx.ule(byte(2), c8(57)));
  ExprRef value = ctx.ite(first, digit2, ctx.land(digit1, digit0));
  for (const ExprRef &branch : {value, ctx.lnot(value), ctx.land(value, ctx.eq(byte(2), c8(60)))}) {
    Query q({merged}, branch);
    EXPECT_EQ(solver->check(q, false).result, bare->check(q, false).result) << toString(branch.get());
  }
  for (const Query &q : recorder->seen) {
    for (const ExprRef &c : q.constraints)
      EXPECT_NE(c->kind(), Kind::Or) << "the merged condition reached the core: " << toString(c.get());
    EXPECT_NE(q.expr->kind(), Kind::Ite) << toString(q.expr.get());
  }
  // The other state's value is false under its own path: that case asks nothing.
  recorder->seen.clear();
  EXPECT_EQ(solver->check(Query({other}, value), false).result, SatResult::Unsat);
  EXPECT_TRUE(recorder->seen.empty());
}

// A compound constraint the literal ones make false rules the query out, also where the query
// asks for no expression of its own (whether the constraints alone are satisfiable); asked
// twice, the second time from the rewrite the layer kept.
TEST_F(Fixture, DisjunctSplitFindsAConstraintItsLiteralsContradict) {
  auto solver = createDisjunctSplitSolver(createZ3Solver(10));
  ExprRef five = ctx.eq(byte(0), c8(5));
  ExprRef notFiveAndSeven = ctx.land(ctx.lnot(five), ctx.eq(byte(1), c8(7)));
  for (int asked = 0; asked < 2; ++asked) {
    EXPECT_EQ(solver->check(Query({five, notFiveAndSeven}, ExprRef()), false).result, SatResult::Unsat);
    EXPECT_EQ(solver->check(Query({five, notFiveAndSeven}, ctx.eq(byte(2), c8(1))), false).result,
              SatResult::Unsat);
  }
  EXPECT_EQ(answeredBy(*solver, "disjunct-split"), 4u);
}

// Random queries as merged states ask them (a disjunction of paths among the constraints, an
// ite of conditions or a conjunction as the question): the full chain and bare Z3 agree.
TEST_F(Fixture, ChainAgreesWithBareBackendOnMergedStatesQueries) {
  std::unique_ptr<Solver> bare = createZ3Solver(10);
  std::unique_ptr<Solver> chain = createSolverChain(SolverChainOptions{});
  std::mt19937 rng(11);
  auto atom = [&]() -> ExprRef {
    ExprRef x = byte(rng() % 4);
    switch (rng() % 3) {
    case 0: return ctx.ult(x, c8(rng() % 256));
    case 1: return ctx.ult(c8(rng() % 256), x);
    default: return ctx.eq(x, c8(rng() % 4 * 60));
    }
  };
  auto path = [&]() {
    ExprRef p = atom();
    for (unsigned i = rng() % 3; i-- > 0;)
      p = ctx.land(p, rng() % 3 ? atom() : ctx.lnot(atom()));
    return p;
  };
  int sat = 0, unsat = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<ExprRef> pc;
    for (unsigned i = rng() % 3; i-- > 0;)
      pc.push_back(atom());
    ExprRef a = path(), b = path();
    pc.push_back(ctx.lor(a, b));
    ExprRef e;
    switch (rng() % 3) {
    case 0: e = ctx.ite(a, path(), path()); break;
    case 1: e = ctx.lnot(ctx.ite(rng() % 2 ? a : b, path(), atom())); break;
    default: e = ctx.land(path(), path()); break;
    }
    if (bare->check(Query(pc, ctx.trueExpr()), false).result != SatResult::Sat)
      continue;
    SolverResponse expected = bare->check(Query(pc, e), false);
    SolverResponse got = chain->check(Query(pc, e, {input}), true);
    ASSERT_EQ(expected.result, got.result) << "round " << round << ": " << toString(e.get());
    if (got.result == SatResult::Sat) {
      ++sat;
      Query whole(pc, e);
      for (const ExprRef &c : whole.constraints)
        EXPECT_TRUE(evaluatesTrue(c.get(), got.model)) << "round " << round;
      EXPECT_TRUE(evaluatesTrue(e.get(), got.model)) << "round " << round;
    } else {
      ++unsat;
    }
  }
  EXPECT_GT(sat, 100);
  EXPECT_GT(unsat, 30);
}

// Random constraint sets over four bytes: the full chain and bare Z3 agree on every answer,
// and every model the chain gives satisfies its query.
TEST_F(Fixture, ChainAgreesWithBareBackendOnRandomQueries) {
  std::unique_ptr<Solver> bare = createZ3Solver(10);
  std::unique_ptr<Solver> chain = createSolverChain(SolverChainOptions{});
  std::mt19937 rng(7);
  auto randomAtom = [&]() -> ExprRef {
    ExprRef x = byte(rng() % 4), y = byte(rng() % 4);
    ExprRef c = c8(rng() % 256);
    switch (rng() % 5) {
    case 0: return ctx.ult(x, c);
    case 1: return ctx.ult(c, x);
    case 2: return ctx.eq(ctx.add(x, y), c);
    case 3: return ctx.ne(x, y);
    default: return ctx.ule(ctx.bvand(x, c), y);
    }
  };
  int sat = 0, unsat = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<ExprRef> pc;
    unsigned n = rng() % 4;
    for (unsigned i = 0; i < n; ++i)
      pc.push_back(randomAtom());
    ExprRef e = randomAtom();
    // Only satisfiable path constraints are meaningful to the slicing layer.
    if (bare->check(Query(pc, ctx.trueExpr()), false).result != SatResult::Sat)
      continue;
    SolverResponse expected = bare->check(Query(pc, e), false);
    SolverResponse got = chain->check(Query(pc, e, {input}), true);
    ASSERT_EQ(expected.result, got.result) << "round " << round;
    if (got.result == SatResult::Sat) {
      ++sat;
      EXPECT_TRUE(evaluatesTrue(e.get(), got.model)) << "round " << round;
    } else {
      ++unsat;
    }
  }
  EXPECT_GT(sat, 50);
  EXPECT_GT(unsat, 10);
  std::vector<SolverLayerStats> stats;
  chain->collectStats(stats);
  ASSERT_EQ(stats.size(), 9u);
  EXPECT_EQ(stats[0].layer, "disjunct-split");
  EXPECT_EQ(stats[0].answered, 0u);                     // no disjunction among the constraints
  EXPECT_EQ(stats[1].layer, "independence");
  EXPECT_GT(stats[2].answered + stats[3].answered, 0u); // the caches saved some calls
  EXPECT_EQ(stats[4].layer, "byte-domain");
  EXPECT_GT(stats[4].answered, 0u);                     // single-byte parts decided there
  EXPECT_LT(stats[4].answered, stats[4].queries);       // and two-byte ones passed on
  EXPECT_EQ(stats[5].layer, "quantified");
  EXPECT_EQ(stats[5].answered, 0u); // no quantifier here
  EXPECT_EQ(stats[6].layer, "float-routing");
  EXPECT_LT(stats[6].queries, stats[1].queries);
  EXPECT_EQ(stats[7].layer, "z3");
  EXPECT_EQ(stats[7].queries, stats[6].queries);
  EXPECT_EQ(stats[8].layer, "isolated-cvc5"); // the float core: no float here
  EXPECT_EQ(stats[8].queries, 0u);
}

TEST_F(Fixture, LayersCanBeSwitchedOff) {
  SolverChainOptions o;
  o.independence = o.queryCache = o.cexCache = o.byteDomain = o.disjunctSplit = o.quantified = false;
  o.floatCore = CoreSolverKind::Z3; // one core for every query: no routing layer
  std::vector<SolverLayerStats> stats;
  createSolverChain(o)->collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].layer, "z3");
  o.cexCache = true;
  stats.clear();
  createSolverChain(o)->collectStats(stats);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].layer, "cex-cache");
}

TEST_F(Fixture, PortfolioAnswersLikeEitherBackend) {
  std::unique_ptr<Solver> p = createPortfolioSolver(10);
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10))};
  Answer<bool> r = p->mayBeTrue(pc, ctx.eq(byte(0), c8(12)));
  ASSERT_TRUE(r.known());
  EXPECT_FALSE(*r);
  Answer<u128> v = p->getValue(pc, byte(0));
  ASSERT_TRUE(v.known());
  EXPECT_LT(*v, 10u);
  std::vector<SolverLayerStats> stats;
  p->collectStats(stats);
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].answered, 2u);
  EXPECT_EQ(stats[1].answered + stats[2].answered, 2u);
}

} // namespace

namespace {

// --- PathConstraints: what the KLEE-style questions hand the chain ------------------------------

TEST_F(Fixture, QuestionsWithoutABuiltFormSendQueriesWithoutOne) {
  RecordingSolver s;
  std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10))};
  ASSERT_TRUE(s.evaluate(pc, ctx.eq(byte(0), c8(3))).known());
  ASSERT_TRUE(s.getValue(pc, byte(0)).known());
  ASSERT_FALSE(s.seen.empty());
  for (const Query &q : s.seen)
    EXPECT_FALSE(q.original) << "no layer asked for a built form";
}

TEST_F(Fixture, QuestionsCarryTheBuiltFormOfEveryConstraintAndOfTheQuestion) {
  RecordingSolver s;
  // The built form stands in for what the engine had before substituting values: other
  // expressions, one for one.
  std::vector<ExprRef> solved = {ctx.ult(byte(0), c8(10))}, built = {ctx.ult(byte(1), c8(10))};
  ExprRef question = ctx.eq(byte(0), c8(3)), builtQuestion = ctx.eq(byte(1), c8(3));
  ASSERT_TRUE(s.mayBeFalse(PathConstraints(solved, built, true), question, builtQuestion).known());
  ASSERT_EQ(s.seen.size(), 1u);
  const Query &q = s.seen[0];
  ASSERT_TRUE(q.original);
  EXPECT_EQ(q.constraints, solved);
  EXPECT_EQ(q.original->constraints, built);
  EXPECT_EQ(q.expr, ctx.lnot(question));
  EXPECT_EQ(q.original->expr, ctx.lnot(builtQuestion)) << "the question is negated in both forms";
  EXPECT_TRUE(q.original->concreteOnly);
  ASSERT_TRUE(s.getInitialValues(PathConstraints(solved, built, false), {input}).known());
  ASSERT_TRUE(s.seen.back().original);
  EXPECT_FALSE(s.seen.back().original->concreteOnly);
  EXPECT_TRUE(s.seen.back().original->expr->isTrue());
}

} // namespace
