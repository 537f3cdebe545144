// RemoteSolver over two cairn-solver-pool replicas that fail: one killed mid-sequence (the other
// carries on), both killed (the in-process fallback answers), one hung (one deadline lost, then
// the other carries on). Every answer is checked against an in-process Z3.
#include "Process.h"
#include "RandomQueries.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/RemoteSolver.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>

using namespace cairn;
using namespace cairn::testing;

namespace {

struct Failover : ::testing::Test {
  PoolProcess a, b;
  ExprContext ctx;
  RandomQueries queries{ctx, 4242};
  std::unique_ptr<Solver> z3 = createZ3Solver(20);

  void SetUp() override {
    ASSERT_TRUE(a.ready());
    ASSERT_TRUE(b.ready());
  }

  RemoteSolverOptions options(double timeout = 20, double margin = 2) {
    RemoteSolverOptions o;
    o.endpoints = {a.endpoint(), b.endpoint()};
    o.timeoutSeconds = timeout;
    o.deadlineMarginSeconds = margin;
    o.token = testPoolToken();
    return o;
  }

  // Asks `count` queries and checks each answer (and model) against Z3.
  void askAndCheck(RemoteSolver &remote, int count) {
    for (int i = 0; i < count; ++i) {
      Query q = queries.next();
      SolverResponse got = remote.check(q, true);
      SolverResponse expected = z3->check(q, false);
      ASSERT_EQ(got.result, expected.result) << got.reason;
      if (got.result == SatResult::Sat) {
        for (const ExprRef &c : q.constraints)
          ASSERT_TRUE(evaluatesTrue(c.get(), got.model));
        ASSERT_TRUE(evaluatesTrue(q.expr.get(), got.model));
      }
    }
  }
};

TEST_F(Failover, AKilledReplicasQueriesGoToTheOther) {
  RemoteSolver remote(options());
  askAndCheck(remote, 30);
  const uint64_t toA = a.stats().requests(), toB = b.stats().requests();
  EXPECT_EQ(toA + toB, 30u);
  // Routing spreads queries over both, so the kill below matters.
  EXPECT_GT(toA, 0u);
  EXPECT_GT(toB, 0u);
  a.kill();
  askAndCheck(remote, 40);
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  EXPECT_EQ(b.stats().requests() - toB, 40u);
}

TEST_F(Failover, WithBothKilledTheFallbackAnswers) {
  RemoteSolver remote(options());
  askAndCheck(remote, 10);
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  a.kill();
  b.kill();
  askAndCheck(remote, 20);
  EXPECT_EQ(remote.fallbackQueries(), 20u);
  std::vector<SolverLayerStats> stats;
  remote.collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].queries, 30u);
}

TEST_F(Failover, AHungReplicaCostsOneDeadline) {
  // A stopped process keeps its connections open but answers nothing: only the deadline (time
  // limit plus margin) tells.
  // Deadline 2.5 s; the queries take milliseconds, so even a loaded machine answers in time.
  RemoteSolver remote(options(2, 0.5));
  askAndCheck(remote, 4);
  const uint64_t toB = b.stats().requests();
  a.signal(SIGSTOP);
  auto start = std::chrono::steady_clock::now();
  askAndCheck(remote, 20);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  a.signal(SIGCONT);
  EXPECT_EQ(remote.fallbackQueries(), 0u);
  EXPECT_EQ(b.stats().requests() - toB, 20u);
  // A deadline or two (the replica is tried again when its backoff ends), not one for each of
  // the ten or so queries routed to it.
  EXPECT_LT(seconds, 12);
}

} // namespace
