// The byte-domain layer decides queries that read a few bytes of input, and must answer exactly as
// the core solver does: the same satisfiability on random queries, models that satisfy them and
// hold whole arrays, and every other query handed to the next layer untouched.
#include "cairn/expr/Assignment.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

#include <random>

using namespace cairn;

namespace {

struct ByteQueries {
  ExprContext ctx;
  std::mt19937 rng{20261127};
  const SymbolDecl *input = ctx.declareArray("in", 16);
  const SymbolDecl *scalar = ctx.declareSymbol("c", 8, SymbolClass::Input);
  const SymbolDecl *wide = ctx.declareSymbol("w", 32, SymbolClass::Input);

  unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng); }
  ExprRef k(unsigned bits) { return ctx.constant(pick(1u << bits), 32); } // a 32-bit constant below 2^bits
  ExprRef byteAt(unsigned i) { return ctx.select(ctx.symbol(input), ctx.constant(i, 32)); }

  // A 32-bit term over `atom` (8 bits), as C's promotions and arithmetic build them.
  ExprRef term(const ExprRef &atom) {
    ExprRef t = pick(2) ? ctx.zext(atom, 32) : ctx.sext(atom, 32);
    switch (pick(7)) {
    case 0: return ctx.add(t, k(16));
    case 1: return ctx.mul(t, k(8));
    case 2: return ctx.bvand(t, k(8));
    case 3: return ctx.bvxor(t, k(8));
    case 4: return ctx.udiv(t, ctx.constant(1 + pick(9), 32));
    case 5: return ctx.shl(t, ctx.constant(pick(4), 32));
    default: return t;
    }
  }
  ExprRef comparison(const ExprRef &atom) {
    ExprRef a = term(atom), b = pick(3) ? k(9) : term(atom);
    ExprRef c;
    switch (pick(6)) {
    case 0: c = ctx.eq(a, b); break;
    case 1: c = ctx.ult(a, b); break;
    case 2: c = ctx.ule(a, b); break;
    case 3: c = ctx.slt(a, b); break;
    case 4: c = ctx.sle(a, b); break;
    default: c = ctx.ne(a, b); break;
    }
    return pick(3) ? c : ctx.lnot(c);
  }
  Query oneByte() {
    ExprRef atom = pick(3) ? byteAt(pick(16)) : ctx.symbol(scalar);
    std::vector<ExprRef> cs;
    for (unsigned n = 1 + pick(4); n-- > 0;)
      cs.push_back(comparison(atom));
    return Query(cs, pick(2) ? comparison(atom) : ctx.trueExpr(), {ctx.symbol(input)});
  }
};

uint64_t answeredBy(const Solver &s, const std::string &layer) {
  std::vector<SolverLayerStats> stats;
  s.collectStats(stats);
  for (const SolverLayerStats &l : stats)
    if (l.layer == layer)
      return l.answered;
  return ~uint64_t(0);
}

// The layer's answer to query `i`, checked against the reference's: the same result, and a
// model that satisfies the query.
SolverResponse checkedAgainst(Solver &layer, Solver &reference, const Query &q, int i) {
  SolverResponse mine = layer.check(q, true), theirs = reference.check(q, false);
  EXPECT_EQ(mine.result, theirs.result) << "query " << i;
  if (mine.result == SatResult::Sat) {
    for (const ExprRef &c : q.constraints)
      EXPECT_TRUE(evaluatesTrue(c.get(), mine.model)) << "query " << i;
    EXPECT_TRUE(evaluatesTrue(q.expr.get(), mine.model)) << "query " << i;
  }
  return mine;
}

// The layer over Z3, and Z3 alone to check its answers against.
class ByteDomainSolver : public ::testing::Test {
protected:
  ByteQueries g;
  std::unique_ptr<Solver> layer = createByteDomainSolver(createZ3Solver(20));
  std::unique_ptr<Solver> z3 = createZ3Solver(20);
};

TEST_F(ByteDomainSolver, AnswersOneByteQueriesAsZ3Does) {
  unsigned sat = 0, unsat = 0, readingTheByte = 0;
  for (int i = 0; i < 400; ++i) {
    Query q = g.oneByte();
    // Some simplify to constants (x & 0 ...): those read nothing, and the next layer has them.
    bool reads = !q.expr->isConstant();
    for (const ExprRef &c : q.constraints)
      reads = reads || !c->isConstant();
    readingTheByte += reads;
    SolverResponse mine = checkedAgainst(*layer, *z3, q, i);
    if (mine.result != SatResult::Sat) {
      ++unsat;
      continue;
    }
    ++sat;
    ASSERT_NE(mine.model.array(g.input), nullptr);
    EXPECT_EQ(mine.model.array(g.input)->size(), 16u); // the whole array, as a test needs it
  }
  EXPECT_EQ(answeredBy(*layer, "byte-domain"), readingTheByte);
  EXPECT_GT(readingTheByte, 350u);
  EXPECT_GT(sat, 50u);
  EXPECT_GT(unsat, 50u);
}

// Literals of many nodes (sums of terms over the byte, as merged values make them) are tried
// value by value; the few-node ones a query shares with earlier queries are decided from what
// is remembered of them. Each answer is Z3's.
TEST_F(ByteDomainSolver, AnswersQueriesOfRepeatedAndLargeLiteralsAsZ3Does) {
  const ExprRef atom = g.byteAt(3);
  std::vector<ExprRef> pool;
  for (int i = 0; i < 10; ++i)
    pool.push_back(g.comparison(atom));
  for (int i = 0; i < 6; ++i) { // a sum of eight terms: more nodes than a literal remembered
    ExprRef sum = g.term(atom);
    for (int t = 0; t < 7; ++t)
      sum = g.ctx.add(sum, g.term(atom));
    pool.push_back(g.pick(2) ? g.ctx.ult(sum, g.k(16)) : g.ctx.ult(g.k(16), sum));
  }
  unsigned sat = 0, unsat = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<ExprRef> cs;
    for (unsigned n = 1 + g.pick(4); n-- > 0;)
      cs.push_back(pool[g.pick(pool.size())]);
    Query q(cs, pool[g.pick(pool.size())], {g.ctx.symbol(g.input)});
    (checkedAgainst(*layer, *z3, q, i).result == SatResult::Sat ? sat : unsat) += 1;
  }
  EXPECT_GT(sat, 30u);
  EXPECT_GT(unsat, 30u);
}

// Queries over two or three bytes: single-byte literals narrow each byte, literals over several
// bytes (sums, and ites choosing between two paths' values, as a merged state's are) are tried
// as the bytes get values. Each answer is Z3's; a query with more candidates than the layer
// tries goes on to Z3.
TEST_F(ByteDomainSolver, AnswersQueriesOverAFewBytesAsZ3Does) {
  unsigned sat = 0, unsat = 0, wide = 0;
  for (int i = 0; i < 300; ++i) {
    const unsigned n = 2 + g.pick(2);
    std::vector<ExprRef> bytes;
    for (unsigned b = 0; b < n; ++b)
      bytes.push_back(g.byteAt(4 * b + g.pick(4)));
    if (n == 3 && g.pick(4) == 0) { // 256 values each: more candidates than tried
      ++wide;
      ExprRef sum = g.ctx.add(g.ctx.add(g.ctx.zext(bytes[0], 32), g.ctx.zext(bytes[1], 32)), g.ctx.zext(bytes[2], 32));
      checkedAgainst(*layer, *z3, Query({g.ctx.ne(sum, g.k(9))}, g.ctx.trueExpr(), {g.ctx.symbol(g.input)}), i);
      continue;
    }
    std::vector<ExprRef> cs;
    for (unsigned b = 0; b < n; ++b) // 1 to 8 values per byte: within the budget of evaluations
      cs.push_back(g.ctx.ult(g.ctx.zext(bytes[b], 32), g.ctx.constant(1 + g.pick(8), 32)));
    ExprRef sum = g.term(bytes[0]);
    for (unsigned b = 1; b < n; ++b)
      sum = g.ctx.add(sum, g.term(bytes[b]));
    cs.push_back(g.ctx.ite(g.comparison(bytes[0]), g.ctx.ult(sum, g.k(9)), g.comparison(bytes[n - 1])));
    Query q(cs, g.comparison(bytes[1]), {g.ctx.symbol(g.input)});
    (checkedAgainst(*layer, *z3, q, i).result == SatResult::Sat ? sat : unsat) += 1;
  }
  EXPECT_GT(sat, 30u);
  EXPECT_GT(unsat, 30u);
  EXPECT_GT(wide, 30u);
  EXPECT_EQ(answeredBy(*layer, "byte-domain"), 300u - wide);
}

// Merged path conditions over two whole bytes: ors of ands of a parser's few comparisons of each
// byte, hundreds of nodes, 65536 candidates. The query depends on a byte only through its
// comparisons, so the layer tries one value per class of values they do not tell apart: every
// query is decided here (trying every candidate would be far past the budget), and each answer is
// Z3's.
TEST_F(ByteDomainSolver, DecidesMergedConditionsByTheClassesOfEachBytesValues) {
  unsigned sat = 0, unsat = 0;
  for (int i = 0; i < 200; ++i) {
    std::vector<std::vector<ExprRef>> tests(2); // per byte, the comparisons a parser makes of it
    for (unsigned b = 0; b < 2; ++b) {
      const ExprRef byte = g.byteAt(4 * b + g.pick(4));
      for (int c = 0; c < 4; ++c)
        tests[b].push_back(g.comparison(byte));
    }
    auto paths = [&] {
      ExprRef any = g.ctx.falseExpr();
      for (unsigned p = 12 + g.pick(12); p-- > 0;) {
        ExprRef path = g.ctx.trueExpr();
        for (unsigned c = 2 + g.pick(3); c-- > 0;) {
          const std::vector<ExprRef> &of = tests[g.pick(2)];
          path = g.ctx.land(path, of[g.pick(of.size())]);
        }
        any = g.ctx.lor(any, path);
      }
      return any;
    };
    Query q({paths(), g.ctx.lnot(paths())}, paths(), {g.ctx.symbol(g.input)});
    (checkedAgainst(*layer, *z3, q, i).result == SatResult::Sat ? sat : unsat) += 1;
  }
  EXPECT_GT(sat, 30u);
  EXPECT_GT(unsat, 30u);
  EXPECT_EQ(answeredBy(*layer, "byte-domain"), 200u);
}

TEST_F(ByteDomainSolver, HandsOnOtherQueries) {
  ExprRef wide = g.ctx.eq(g.ctx.symbol(g.wide), g.ctx.constant(70000, 32));
  ExprRef whole = g.ctx.eq(g.ctx.select(g.ctx.symbol(g.input), g.ctx.zext(g.ctx.symbol(g.scalar), 32)),
                           g.ctx.constant(7, 8));
  // More bytes than the layer takes, and 2^64 candidates over as many as it takes.
  auto sumOf = [&](unsigned n) {
    ExprRef sum = g.ctx.constant(0, 32);
    for (unsigned i = 0; i < n; ++i)
      sum = g.ctx.add(sum, g.ctx.zext(g.byteAt(i), 32));
    return g.ctx.eq(sum, g.ctx.constant(9, 32));
  };
  for (const ExprRef &c : {wide, whole, sumOf(9), sumOf(8)}) {
    SolverResponse r = layer->check(Query({c}, g.ctx.trueExpr()), true);
    EXPECT_EQ(r.result, SatResult::Sat);
    EXPECT_TRUE(evaluatesTrue(c.get(), r.model));
  }
  // 65536 candidates, none of which holds: more evaluations than the budget allows.
  ExprRef pair = g.ctx.add(g.ctx.mul(g.ctx.zext(g.byteAt(0), 32), g.ctx.constant(257, 32)), g.ctx.zext(g.byteAt(1), 32));
  EXPECT_EQ(layer->check(Query({g.ctx.eq(pair, g.ctx.constant(70000, 32))}, g.ctx.trueExpr()), false).result,
            SatResult::Unsat);
  EXPECT_EQ(answeredBy(*layer, "byte-domain"), 0u);
}

} // namespace
