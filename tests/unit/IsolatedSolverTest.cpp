// A solver in a child process: same answers as in-process, and a crash or hang of the solver
// process is an Unknown answer with the reason, after which the next query works again.
#include "cairn/solver/IsolatedSolver.h"

#include <gtest/gtest.h>

#include <csignal>
#include <future>
#include <thread>

using namespace cairn;

namespace {

struct IsolatedSolverTest : ::testing::Test {
  ExprContext ctx;
  ExprRef input = ctx.symbol(ctx.declareArray("input", 4));
  ExprRef byte(unsigned i) { return ctx.select(input, ctx.constant(i, 32)); }
  ExprRef c8(unsigned v) { return ctx.constant(v, 8); }

  // Proving that p*q (two 31-bit primes) has no factorisation in 64-bit factors but p*q and
  // q*p: a hard unsat query, far beyond the time the tests give it.
  Query hardQuery() {
    const uint64_t p = 2147483647ull, q = 2147483629ull;
    ExprRef x = ctx.symbol(ctx.declareSymbol("hx", 64, SymbolClass::Input));
    ExprRef y = ctx.symbol(ctx.declareSymbol("hy", 64, SymbolClass::Input));
    ExprRef product = ctx.mul(ctx.zext(x, 128), ctx.zext(y, 128));
    return Query({ctx.ugt(x, ctx.constant(1, 64)), ctx.ugt(y, ctx.constant(1, 64)),
                  ctx.ne(x, ctx.constant(p, 64)), ctx.ne(x, ctx.constant(q, 64))},
                 ctx.eq(product, ctx.constant(u128(p) * q, 128)));
  }
};

TEST_F(IsolatedSolverTest, AnswersLikeTheInProcessSolver) {
  for (CoreSolverKind kind : {CoreSolverKind::Z3, CoreSolverKind::Cvc5}) {
    IsolatedSolver solver(kind, 10);
    std::vector<ExprRef> pc = {ctx.ult(byte(0), c8(10)), ctx.ult(c8(3), byte(0))};
    Answer<Assignment> m = solver.getInitialValues(pc, {input});
    ASSERT_TRUE(m.known()) << m.reason;
    u128 v = m->element(input->symbol(), 0);
    EXPECT_TRUE(v > 3 && v < 10);
    Answer<bool> r = solver.mayBeTrue(pc, ctx.eq(byte(0), c8(12)));
    ASSERT_TRUE(r.known());
    EXPECT_FALSE(*r);
    EXPECT_GT(solver.processId(), 0);
  }
}

TEST_F(IsolatedSolverTest, AKilledSolverProcessIsAnUnknownAnswerAndIsRestarted) {
  IsolatedSolver solver(CoreSolverKind::Z3, 0);
  ASSERT_TRUE(solver.mayBeTrue({}, ctx.eq(byte(1), c8(1))).known()); // starts the process
  pid_t first = solver.processId();
  ASSERT_GT(first, 0);
  Query hard = hardQuery();
  auto pending = std::async(std::launch::async, [&] { return solver.check(hard, false); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(::kill(first, SIGSEGV), 0); // as if the solver had crashed
  SolverResponse r = pending.get();
  EXPECT_EQ(r.result, SatResult::Unknown);
  EXPECT_NE(r.reason.find("signal 11"), std::string::npos) << r.reason;
  // The next query gets a fresh process.
  Answer<bool> again = solver.mayBeTrue({ctx.ult(byte(0), c8(10))}, ctx.eq(byte(0), c8(12)));
  ASSERT_TRUE(again.known()) << again.reason;
  EXPECT_FALSE(*again);
  EXPECT_NE(solver.processId(), first);
}

TEST_F(IsolatedSolverTest, TimeoutIsAnUnknownAnswer) {
  IsolatedSolver solver(CoreSolverKind::Cvc5, 0.1);
  auto start = std::chrono::steady_clock::now();
  SolverResponse r = solver.check(hardQuery(), false);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.result, SatResult::Unknown);
  EXPECT_FALSE(r.reason.empty());
  EXPECT_LT(s, 5.0);
}

TEST_F(IsolatedSolverTest, SolverProcessesAliveAtOnceEndIndependently) {
  // The second process is forked while the first one's socket is open in the parent: unless it
  // drops its copy, the first process never sees end of file and destroying it waits forever.
  auto first = std::make_unique<IsolatedSolver>(CoreSolverKind::Z3, 10);
  IsolatedSolver second(CoreSolverKind::Z3, 10);
  ASSERT_TRUE(first->mayBeTrue({}, ctx.eq(byte(0), c8(1))).known());
  ASSERT_TRUE(second.mayBeTrue({}, ctx.eq(byte(0), c8(2))).known());
  std::future<void> ended = std::async(std::launch::async, [&] { first.reset(); });
  if (ended.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    ADD_FAILURE() << "destroying the first solver hangs while the second one lives";
    ::kill(second.processId(), SIGKILL); // lets the destructor's wait end
  }
  ended.wait();
  ASSERT_TRUE(second.mayBeTrue({}, ctx.eq(byte(0), c8(3))).known());
}

} // namespace
