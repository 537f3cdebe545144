// The C library's math functions in a run: which calls the engine computes (by name and C
// signature, declarations only, never a program's own definition), symbolically where they
// have an SMT meaning, on concrete arguments (counted) where they have none.
#include "RunSource.h"

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

class MathFunctionsTest : public EngineRunTest {
protected:
  ExecutorOptions dfs() {
    ExecutorOptions o;
    o.search = SearchStrategy::Dfs;
    return o;
  }
};

// frexpf and ldexpf on a symbolic float fork nowhere: only the branches on the results do.
// frexpf's exponent is written through the pointer.
TEST_F(MathFunctionsTest, SymbolicCallsAreTermsWithoutForks) {
  Outcome o = runSource("float frexpf(float, int *);\nfloat ldexpf(float, int);\n"
                        "int main(void) { float x; int e; klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  float m = frexpf(x, &e);\n"
                        "  if (e == 3) return 1;\n"
                        "  return ldexpf(m, 2) > 1.0f; }\n",
                        dfs());
  EXPECT_EQ(o.stats.pathsCompleted, 2u);
  EXPECT_EQ(o.stats.forks, 1u);
  EXPECT_EQ(o.stats.floats.libraryCalls, 2u);
  EXPECT_EQ(o.stats.floats.concretisedCalls, 0u);
  EXPECT_TRUE(o.stats.errors.empty());
}

// sin of a symbolic value: one concretisation per call with a symbolic argument, computed on
// the host for a declaration (here no libc is linked); a concrete argument is not counted.
TEST_F(MathFunctionsTest, FunctionsWithoutAnSmtMeaningAreConcretisedAndCounted) {
  Outcome o = runSource("double sin(double);\n"
                        "int main(void) { double x; klee_make_symbolic(&x, sizeof x, \"x\");\n"
                        "  double a = sin(x), b = sin(0.5);\n"
                        "  return a > 2.0 || b != sin(0.5); }\n",
                        dfs());
  EXPECT_EQ(o.stats.floats.concretisedCalls, 1u);
  EXPECT_EQ(o.stats.pathsCompleted, 1u);
  EXPECT_TRUE(o.stats.errors.empty());
}

// A program's own ldexp runs as its code; a declaration of sqrt with another type is an
// external call, not the math function.
TEST_F(MathFunctionsTest, OwnDefinitionsAndOtherSignaturesAreLeftAlone) {
  Outcome own = runSource("double ldexp(double x, int n) { return 42.0; }\n"
                          "int main(void) { volatile double x = 1.5; volatile int n = 0;\n"
                          "  volatile int one = ldexp(x, n) == 42.0; return 1 / one; }\n",
                          dfs());
  EXPECT_EQ(own.stats.floats.libraryCalls, 0u);
  EXPECT_TRUE(own.stats.errors.empty()); // the library's ldexp would divide by zero
  Outcome other = runSource("int sqrt(int);\nint main(void) { return sqrt(4); }\n", dfs());
  EXPECT_EQ(other.errors(), std::multiset<std::string>({"external external-call " + std::to_string(kEnginePreludeLines + 2)}));
}

// Under --float concrete a symbolic argument the path does not fix is a model error, as for
// the instructions.
TEST_F(MathFunctionsTest, ConcreteFloatsRefuseASymbolicArgument) {
  ExecutorOptions o = dfs();
  o.symbolicFloats = false;
  Outcome out = runSource("double floor(double);\n"
                          "int main(void) { double x; klee_make_symbolic(&x, sizeof x, \"x\");\n"
                          "  return floor(x) > 1.0; }\n",
                          o);
  EXPECT_EQ(out.errors(), std::multiset<std::string>({"model symbolic-float " + std::to_string(kEnginePreludeLines + 3)}));
}

} // namespace
