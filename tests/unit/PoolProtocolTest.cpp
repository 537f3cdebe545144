// Queries on their way to the solver pool: the same question asked from two contexts, with its
// constraints in any order, is the same request and the same cache key; what changes only the
// delivery (model wanted, time limit, request id) leaves the key alone; a request read back in
// another context asks the original question.
#include "cairn/solver/PoolProtocol.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/solver/SolverChain.h"

#include "cairn/v1/solver_pool.pb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace cairn;

namespace {

// Builds one family of questions in a context of its own; `noise` declares unrelated symbols
// and nodes first, so that ids and symbol order differ between contexts.
struct Asker {
  ExprContext ctx;
  ExprRef a, b, buf;

  explicit Asker(bool noise) {
    if (noise) {
      ExprRef z = ctx.symbol(ctx.declareSymbol("zzz", 16, SymbolClass::Input));
      ctx.add(z, ctx.constant(7, 16));
    }
    b = ctx.symbol(ctx.declareSymbol("b", 32, SymbolClass::Input));
    a = ctx.symbol(ctx.declareSymbol("a", 32, SymbolClass::Input));
    buf = ctx.symbol(ctx.declareArray("buf", 4));
  }
  ExprRef c32(unsigned v) { return ctx.constant(v, 32); }
  std::vector<ExprRef> constraints() {
    return {ctx.ult(a, c32(100)), ctx.ult(b, a),
            ctx.eq(ctx.select(buf, c32(1)), ctx.extract(a, 0, 8))};
  }
  ExprRef question() { return ctx.eq(ctx.add(a, b), c32(150)); }
};

std::string keyOf(const v1::SolveRequest &request) {
  v1::SolveRequest copy = request;
  return poolCacheKey(*copy.mutable_query());
}

TEST(PoolProtocol, SameQuestionFromTwoContextsIsTheSameRequest) {
  Asker x(false), y(true);
  std::vector<ExprRef> cx = x.constraints(), cy = y.constraints();
  std::reverse(cy.begin(), cy.end());
  cy.push_back(cy.front()); // a repeat
  cy.push_back(y.ctx.trueExpr());
  v1::SolveRequest rx, ry;
  makeSolveRequest(Query(cx, x.question()), true, 5, 1, rx);
  makeSolveRequest(Query(cy, y.question()), true, 5, 1, ry);
  EXPECT_EQ(rx.SerializeAsString(), ry.SerializeAsString());
  EXPECT_EQ(rx.query().constraints_size(), 3);
  EXPECT_EQ(queryRouteHash(Query(cx, x.question())), queryRouteHash(Query(cy, y.question())));
}

TEST(PoolProtocol, DeliveryDetailsDoNotChangeTheKey) {
  Asker x(false);
  v1::SolveRequest plain, other;
  makeSolveRequest(Query(x.constraints(), x.question()), false, 0, 1, plain);
  makeSolveRequest(Query(x.constraints(), x.question()), true, 30, 99, other);
  EXPECT_NE(plain.SerializeAsString(), other.SerializeAsString());
  EXPECT_EQ(keyOf(plain), keyOf(other));
  // ... and computing the key leaves the query as it was.
  std::string before = other.SerializeAsString();
  keyOf(other);
  poolCacheKey(*other.mutable_query());
  EXPECT_EQ(other.SerializeAsString(), before);
  EXPECT_TRUE(other.query().want_model());
  EXPECT_EQ(other.query().timeout_s(), 30);
}

TEST(PoolProtocol, DifferentQuestionsHaveDifferentKeys) {
  Asker x(false);
  std::vector<ExprRef> pc = x.constraints();
  v1::SolveRequest base, otherExpr, fewer, withTerm;
  makeSolveRequest(Query(pc, x.question()), false, 0, 1, base);
  makeSolveRequest(Query(pc, x.ctx.lnot(x.question())), false, 0, 1, otherExpr);
  makeSolveRequest(Query({pc[0], pc[1]}, x.question()), false, 0, 1, fewer);
  makeSolveRequest(Query(pc, x.question(), {x.buf}), false, 0, 1, withTerm);
  std::set<std::string> keys = {keyOf(base), keyOf(otherExpr), keyOf(fewer), keyOf(withTerm)};
  EXPECT_EQ(keys.size(), 4u);
  EXPECT_NE(queryRouteHash(Query(pc, x.question())), queryRouteHash(Query(pc, x.ctx.lnot(x.question()))));
}

TEST(PoolProtocol, RequestReadBackAsksTheSameQuestion) {
  Asker x(false);
  Query q(x.constraints(), x.question(), {x.buf});
  v1::SolveRequest request;
  makeSolveRequest(q, true, 2.5, 42, request);
  v1::SolveRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(request.SerializeAsString()));
  EXPECT_EQ(parsed.request_id(), 42u);
  ExprContext other;
  bool wantModel = false;
  Query back = deserializeQuery(parsed.query(), other, &wantModel);
  EXPECT_TRUE(wantModel);
  EXPECT_EQ(parsed.query().timeout_s(), 2.5);
  ASSERT_EQ(back.constraints.size(), q.constraints.size());
  std::multiset<uint64_t> sent, got;
  for (size_t i = 0; i < q.constraints.size(); ++i) {
    sent.insert(q.constraints[i]->hash());
    got.insert(back.constraints[i]->hash());
  }
  EXPECT_EQ(sent, got);
  EXPECT_EQ(back.expr->hash(), q.expr->hash());
  ASSERT_EQ(back.terms.size(), 1u);
  EXPECT_EQ(back.terms[0]->hash(), x.buf->hash());
}

// The symbolic form travels with the query (in a dag of its own), is read back with
// its layout tag, and leaves the cache key alone; a query without one reads back without one.
TEST(PoolProtocol, SymbolicFormTravelsOutsideTheCacheKey) {
  Asker x(false);
  ExprRef base = x.ctx.symbol(x.ctx.declareSymbol("base", 32, SymbolClass::Address, 4));
  Query q(x.constraints(), x.ctx.ult(x.c32(4096), x.a));
  q.original = std::make_shared<const QueryForm>(
      QueryForm{{x.ctx.ult(x.a, x.c32(100)), x.ctx.ult(x.b, x.a)}, x.ctx.ult(base, x.a), true});
  v1::SolveRequest plain, withForm;
  makeSolveRequest(Query(q.constraints, q.expr), false, 0, 1, plain);
  makeSolveRequest(q, false, 0, 1, withForm);
  ASSERT_TRUE(withForm.query().has_symbolic());
  EXPECT_FALSE(plain.query().has_symbolic());
  EXPECT_EQ(poolCacheKey(*plain.mutable_query()), poolCacheKey(*withForm.mutable_query()));
  ASSERT_TRUE(withForm.query().has_symbolic()) << "the key leaves the request as it was";

  ExprContext other;
  Query back = deserializeQuery(withForm.query(), other);
  ASSERT_TRUE(back.original);
  EXPECT_TRUE(back.original->concreteOnly);
  ASSERT_EQ(back.original->constraints.size(), 2u);
  EXPECT_EQ(back.original->constraints[1]->hash(), q.original->constraints[1]->hash());
  EXPECT_EQ(back.original->expr->hash(), q.original->expr->hash());
  EXPECT_TRUE(back.original->expr->mentionsAddress());
  EXPECT_FALSE(deserializeQuery(plain.query(), other).original);

  v1::SolveRequest bad = withForm;
  bad.mutable_query()->mutable_symbolic()->set_expr(bad.query().symbolic().dag().nodes_size() + 5);
  EXPECT_THROW(deserializeQuery(bad.query(), other), std::invalid_argument);
}

TEST(PoolProtocol, EndpointLists) {
  std::vector<std::string> out;
  ASSERT_TRUE(parsePoolEndpoints("localhost:7471", out));
  EXPECT_EQ(out, std::vector<std::string>{"localhost:7471"});
  ASSERT_TRUE(parsePoolEndpoints("10.0.0.1:1,[::1]:2,pool-b:30", out));
  EXPECT_EQ(out, (std::vector<std::string>{"10.0.0.1:1", "[::1]:2", "pool-b:30"}));
  for (const char *bad : {"", "host", ":80", "host:", "host:8x", "a:1,", ",a:1", "a:1,,b:2"})
    EXPECT_FALSE(parsePoolEndpoints(bad, out)) << bad;
  EXPECT_EQ(out.size(), 3u) << "a rejected list leaves the previous one";
}

} // namespace
