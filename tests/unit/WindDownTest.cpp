// A run stopped by its limit or a signal still writes the remaining paths' tests, within the
// wind-down's solver time (Engine::kWindDownSeconds). (That the time is bounded is seen on
// float programs whose input queries take minutes; no query here is reliably that slow.)
#include "RunSource.h"

#include <csignal>

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

} // namespace
