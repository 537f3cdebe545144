// A run stopped by its limit or a signal still writes the remaining paths' tests, within the
// wind-down's solver time (Engine::kWindDownSeconds). (That the time is bounded is seen on
// float programs whose input queries take minutes; no query here is reliably that slow.)
#include "RunSource.h"

#include <chrono>
#include <csignal>
#include <thread>

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

class WindDownTest : public EngineRunTest {};

// Stopped before the first instruction: the one state ends as a partial path with its test.
TEST_F(WindDownTest, AStoppedRunWritesTheRemainingTests) {
  volatile std::sig_atomic_t stop = 1;
  ExecutorOptions o;
  o.stopRequested = &stop;
  Outcome out = runSource("int main(void) { int x; klee_make_symbolic(&x, sizeof x, \"x\");\n"
                          "  return x > 3; }\n",
                          o);
  EXPECT_EQ(out.stats.pathsPartial, 1u);
  ASSERT_EQ(out.tests.size(), 1u);
  EXPECT_TRUE(out.tests[0].partial);
}

// A stop request while the solver works on a query no backend answers in minutes (p*q has no
// other factorisation): the query is interrupted (StopRelay), its path ends as a partial path
// with a test, and the run ends within the wind-down, not after the solver's time limit.
TEST_F(WindDownTest, AStopRequestInterruptsTheRunningQuery) {
  volatile std::sig_atomic_t stop = 0;
  ExecutorOptions o;
  o.stopRequested = &stop;
  o.solver.timeoutSeconds = 60; // what the run would take without the interrupt
  std::thread requester([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop = 1;
  });
  const auto start = std::chrono::steady_clock::now();
  Outcome out = runSource("int main(void) {\n"
                          "  unsigned long long x, y;\n"
                          "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
                          "  klee_make_symbolic(&y, sizeof y, \"y\");\n"
                          "  if (x > 1 && y > 1 && x != 2147483647ull && x != 2147483629ull &&\n"
                          "      (unsigned __int128)x * y == (unsigned __int128)2147483647ull * 2147483629ull)\n"
                          "    return 1;\n"
                          "  return 0;\n"
                          "}\n",
                          o);
  requester.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0); // the wind-down's budget, Engine::kWindDownSeconds
  EXPECT_GE(out.stats.pathsPartial, 1u);
  EXPECT_EQ(out.tests.size(), out.stats.pathsCompleted + out.stats.pathsPartial);
}

} // namespace
