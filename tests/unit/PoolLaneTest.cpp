// The solver pool's lanes: a lane answers queries from clients whose contexts disagree with each
// other (same name, another sort), gives models of the query's own symbols only, rejects
// malformed queries, and the lane pool runs every task exactly once, even when stopping.
#include "LanePool.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/v1/expr.pb.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

using namespace cairn;
using namespace cairn::pool;

namespace {

v1::Query message(const Query &q) {
  v1::Query m;
  serializeQuery(q, true, 0, m);
  return m;
}

SolverResponse solveIn(Lane &lane, const Query &q) {
  v1::QueryResponse out;
  lane.solve(message(q), 10, out);
  return deserializeResponse(out, *contextOf(q));
}

TEST(PoolLane, ClientsWithConflictingSymbolsAreBothAnswered) {
  Lane lane(LaneOptions{});
  ExprContext one, two;
  ExprRef x8 = one.symbol(one.declareSymbol("x", 8, SymbolClass::Input));
  ExprRef x32 = two.symbol(two.declareSymbol("x", 32, SymbolClass::Input));
  // Satisfiable only with 32 bits.
  Query q1({}, one.ult(one.constant(200, 8), x8));
  Query q2({}, two.ult(two.constant(100000, 32), x32));
  SolverResponse r1 = solveIn(lane, q1);
  ASSERT_EQ(r1.result, SatResult::Sat);
  EXPECT_GT(r1.model.scalar(x8->symbol()), 200u);
  EXPECT_EQ(lane.resets(), 0u);
  SolverResponse r2 = solveIn(lane, q2);
  ASSERT_EQ(r2.result, SatResult::Sat);
  EXPECT_GT(r2.model.scalar(x32->symbol()), 100000u);
  EXPECT_EQ(lane.resets(), 1u);
  // Arrays of another size are another declaration too: the model must have their length.
  ExprContext three;
  ExprRef buf = three.symbol(three.declareArray("x", 3));
  SolverResponse r3 = solveIn(lane, Query({}, three.eq(three.select(buf, three.constant(2, 32)),
                                                       three.constant(9, 8))));
  ASSERT_EQ(r3.result, SatResult::Sat);
  ASSERT_NE(r3.model.array(buf->symbol()), nullptr);
  EXPECT_EQ(r3.model.array(buf->symbol())->size(), 3u);
  EXPECT_EQ(lane.resets(), 2u);
}

TEST(PoolLane, ModelsBindOnlyTheQuerysSymbols) {
  Lane lane(LaneOptions{});
  // The first client's answer goes into the lane's counterexample cache with a and b; the
  // second client knows only a, and its question is answered from that cache.
  ExprContext first;
  ExprRef a = first.symbol(first.declareSymbol("a", 8, SymbolClass::Input));
  ExprRef b = first.symbol(first.declareSymbol("b", 8, SymbolClass::Input));
  ASSERT_EQ(solveIn(lane, Query({first.eq(a, first.constant(5, 8))},
                                first.eq(b, first.constant(6, 8))))
                .result,
            SatResult::Sat);
  ExprContext second;
  ExprRef a2 = second.symbol(second.declareSymbol("a", 8, SymbolClass::Input));
  SolverResponse r = solveIn(lane, Query({}, second.eq(a2, second.constant(5, 8))));
  ASSERT_EQ(r.result, SatResult::Sat); // deserializeResponse would throw on an unknown "b"
  EXPECT_EQ(r.model.scalar(a2->symbol()), 5u);
  std::vector<SolverLayerStats> stats = lane.stats();
  ASSERT_EQ(stats.size(), 5u); // cex-cache, quantified, float-routing, z3, isolated-cvc5 (for floats)
  EXPECT_EQ(stats[0].layer, "cex-cache");
  EXPECT_EQ(stats[0].queries, 2u);
  EXPECT_EQ(stats[0].answered, 1u);
  EXPECT_EQ(stats[3].layer, "z3");
  EXPECT_EQ(stats[3].queries, 1u);
}

TEST(PoolLane, MalformedQueriesAreRejected) {
  Lane lane(LaneOptions{});
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 8, SymbolClass::Input));
  v1::Query m = message(Query({}, ctx.ult(x, ctx.constant(3, 8))));
  v1::Query forward = m;
  forward.mutable_dag()->mutable_nodes(0)->add_operands(5); // a leaf with an operand
  v1::QueryResponse out;
  EXPECT_THROW(lane.solve(forward, 10, out), std::invalid_argument);
  v1::Query notBool = m;
  notBool.set_expr(0); // the 8-bit symbol as the question
  EXPECT_THROW(lane.solve(notBool, 10, out), std::invalid_argument);
  v1::Query outOfRange = m;
  outOfRange.add_constraints(1000);
  EXPECT_THROW(lane.solve(outOfRange, 10, out), std::invalid_argument);
  // The lane still works.
  lane.solve(m, 10, out);
  EXPECT_EQ(out.result(), v1::QueryResponse::RESULT_SAT);
}

TEST(LanePool, EveryTaskRunsOnceEvenWhenStopping) {
  LanePool lanes(2, LaneOptions{});
  std::atomic<int> onLane{0}, abandoned{0};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> started{0};
  // Two tasks hold both lanes until released; the rest wait in the queue.
  for (int i = 0; i < 2; ++i)
    lanes.submit([&](Lane *lane) {
      ASSERT_NE(lane, nullptr);
      ++started;
      released.wait();
      ++onLane;
    });
  while (started < 2)
    std::this_thread::yield();
  for (int i = 0; i < 5; ++i)
    lanes.submit([&](Lane *lane) { ++(lane ? onLane : abandoned); });
  EXPECT_EQ(lanes.running(), 2u);
  EXPECT_EQ(lanes.queued(), 5u);
  lanes.stop();
  EXPECT_EQ(lanes.queued(), 0u);
  EXPECT_EQ(abandoned, 5);
  lanes.submit([&](Lane *lane) { ++(lane ? onLane : abandoned); });
  EXPECT_EQ(abandoned, 6);
  release.set_value();
  lanes.join();
  EXPECT_EQ(onLane, 2);
}

} // namespace

namespace {

// A lane with the typed array solver prunes by the element widths the client sent: the
// running example of type- and interval-aware array solving is UNSAT by the pre-check there,
// with no core call, and it is only with the widths that the pre-check can tell.
TEST(PoolLane, TypedArraySolverUsesTheClientsElementWidths) {
  LaneOptions options;
  options.arrays.typed = options.arrays.precheck = true;
  Lane lane(options);
  ExprContext ctx;
  ExprRef i = ctx.readLE(ctx.symbol(ctx.declareArray("i", 4)), ctx.constant(0, 32), 4);
  ExprRef j = ctx.readLE(ctx.symbol(ctx.declareArray("j", 4)), ctx.constant(0, 32), 4);
  // int a[4] = {0, 0, 0, last}; i + j > 4 and a[i] + a[j] > 10 over i, j <= 3.
  ExprRef a;
  auto example = [&](unsigned last) {
    std::vector<u128> bytes(16, 0);
    bytes[12] = last;
    a = ctx.constArray(bytes, 8, 64);
    auto element = [&](const ExprRef &x) { return ctx.readLE(a, ctx.mul(ctx.constant(4, 64), ctx.zext(x, 64)), 4); };
    return Query({ctx.ule(i, ctx.constant(3, 32)), ctx.ule(j, ctx.constant(3, 32)),
                  ctx.ult(ctx.constant(4, 32), ctx.add(i, j))},
                 ctx.ult(ctx.constant(10, 32), ctx.add(element(i), element(j))));
  };
  auto unsatByPrecheck = [&] {
    for (const SolverLayerStats &l : lane.stats())
      for (const auto &[name, v] : l.counters)
        if (name == "precheck_unsat")
          return v;
    return uint64_t(0);
  };
  EXPECT_EQ(solveIn(lane, example(5)).result, SatResult::Unsat);
  EXPECT_EQ(unsatByPrecheck(), 0u); // bytes at every position: the core decides
  Query typed = example(4); // another query: the lane's caches do not know it
  auto types = std::make_shared<ArrayTypes>();
  types->elementBytes.emplace_back(a, 4);
  typed.arrayTypes = types;
  EXPECT_EQ(solveIn(lane, typed).result, SatResult::Unsat);
  EXPECT_EQ(unsatByPrecheck(), 1u);
}

} // namespace
