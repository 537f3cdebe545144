// Solver::interrupt from another thread: the query running ends Unknown ("interrupted") at once,
// for every core that can be interrupted (Z3 in process, either backend in a child process, the
// portfolio); between queries it does nothing. And the float routing core: which backend gets
// which query.
#include "cairn/solver/Backends.h"
#include "cairn/solver/IsolatedSolver.h"
#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace cairn;

namespace {

using Clock = std::chrono::steady_clock;

std::unique_ptr<Solver> makeCore(const std::string &name) {
  if (name == "z3")
    return createZ3Solver(0);
  if (name == "isolated-z3")
    return std::make_unique<IsolatedSolver>(CoreSolverKind::Z3, 0);
  if (name == "isolated-cvc5")
    return std::make_unique<IsolatedSolver>(CoreSolverKind::Cvc5, 0);
  // With a time limit: its cvc5 lane cannot be interrupted and runs on to it, and destroying
  // the portfolio waits for that lane. The interrupt ends the race long before.
  return createPortfolioSolver(4);
}

struct SolverInterruptTest : ::testing::TestWithParam<std::string> {
  ExprContext ctx;
  std::unique_ptr<Solver> solver = makeCore(GetParam());

  ExprRef sym(const char *name, unsigned width) {
    return ctx.symbol(ctx.declareSymbol(name, width, SymbolClass::Input));
  }
  ExprRef c(u128 v, unsigned width) { return ctx.constant(v, width); }

  // That p*q (two 31-bit primes) has no factorisation in 64-bit factors but p*q and q*p: no
  // backend proves it in minutes.
  Query hardQuery() {
    const uint64_t p = 2147483647ull, q = 2147483629ull;
    ExprRef x = sym("fx", 64), y = sym("fy", 64);
    ExprRef product = ctx.mul(ctx.zext(x, 128), ctx.zext(y, 128));
    return Query({ctx.ugt(x, c(1, 64)), ctx.ugt(y, c(1, 64)), ctx.ne(x, c(p, 64)), ctx.ne(x, c(q, 64))},
                 ctx.eq(product, c(u128(p) * q, 128)));
  }
  Query easyQuery() {
    ExprRef z = sym("z", 32);
    return Query({ctx.ult(z, c(10, 32))}, ctx.ugt(z, c(5, 32)));
  }
};

TEST_P(SolverInterruptTest, EndsTheRunningQueryAndOnlyIt) {
  // Idle: nothing to end, and the next query is answered.
  solver->interrupt();
  EXPECT_EQ(solver->check(easyQuery(), true).result, SatResult::Sat);

  // Interrupted again and again, as the engine's StopRelay does until the engine has seen the
  // stop: the first may come before the query has begun.
  std::atomic<bool> answered{false};
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    while (!answered) {
      solver->interrupt();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const Clock::time_point start = Clock::now();
  SolverResponse r = solver->check(hardQuery(), true);
  answered = true;
  interrupter.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(r.result, SatResult::Unknown);
  EXPECT_NE(r.reason.find("interrupted"), std::string::npos) << r.reason;
  EXPECT_LT(seconds, 5.0);

  SolverResponse after = solver->check(easyQuery(), true);
  EXPECT_EQ(after.result, SatResult::Sat) << after.reason;
}

INSTANTIATE_TEST_SUITE_P(Cores, SolverInterruptTest,
                         ::testing::Values("z3", "isolated-z3", "isolated-cvc5", "portfolio"),
                         [](const auto &info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

uint64_t queriesOf(const std::vector<SolverLayerStats> &stats, const std::string &layer) {
  for (const SolverLayerStats &s : stats)
    if (s.layer == layer)
      return s.queries;
  ADD_FAILURE() << "no layer " << layer;
  return 0;
}

TEST(FloatRoutingTest, QueriesWithFloatTermsGoToTheFloatCore) {
  ExprContext ctx;
  std::unique_ptr<Solver> solver = createLocalCore(CoreSolverKind::Z3, std::nullopt, false, 0);
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 64, SymbolClass::Input));
  ExprRef one = ctx.constant(0x3ff0000000000000ull, 64); // 1.0
  ExprRef sum = ctx.floatOp(Kind::FAdd, std::vector<ExprRef>{x, one});
  ExprRef bigger = ctx.floatOp(Kind::FOlt, std::vector<ExprRef>{one, sum});
  EXPECT_TRUE(bigger->mentionsFloat());
  EXPECT_FALSE(ctx.ult(x, one)->mentionsFloat());

  EXPECT_EQ(solver->check(Query({}, ctx.ult(x, one)), true).result, SatResult::Sat);
  EXPECT_EQ(solver->check(Query({ctx.ult(x, one)}, bigger), true).result, SatResult::Sat);
  EXPECT_EQ(solver->check(Query({}, ctx.trueExpr(), {sum}), true).result, SatResult::Sat);
  std::vector<SolverLayerStats> stats;
  solver->collectStats(stats);
  EXPECT_EQ(queriesOf(stats, "z3"), 1u);
  EXPECT_EQ(queriesOf(stats, "isolated-cvc5"), 2u); // in a child process: see createLocalCore

  // Z3 named for floats too: one backend. cvc5 for everything: still a float core of its own,
  // in a child process, unless the core is one already.
  EXPECT_EQ(createLocalCore(CoreSolverKind::Z3, CoreSolverKind::Z3, false, 0)->name(), "z3");
  EXPECT_EQ(createLocalCore(CoreSolverKind::Cvc5, std::nullopt, false, 0)->name(),
            "float-routing(cvc5, floats: isolated(cvc5))");
  EXPECT_EQ(createLocalCore(CoreSolverKind::Cvc5, std::nullopt, true, 0)->name(), "isolated(cvc5)");
}

} // namespace
