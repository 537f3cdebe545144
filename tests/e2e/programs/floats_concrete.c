// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Floating point on concrete values (operands come from memory, so the engine does the
// arithmetic): fadd/fsub/fmul/fdiv/fneg, fpext/fptrunc, sitofp/uitofp/fptosi/fptoui, ordered
// and unordered comparisons with a NaN, float and double. The only symbolic input is an int
// that never reaches floating point: one branch, 2 paths, no error.
#include "cairn.h"

int main(void) {
  double d = 1.5, four = 4.0, ten = 10.0;
  float two = 2.0f;
  float f = (float)d * two; /* 3.0f */
  int k = (int)(f + d);     /* 4 */
  klee_assert(k == 4);
  double q = ten / four;
  klee_assert(q == 2.5);
  klee_assert(q - d == 1.0);
  float neg = -f;
  klee_assert(neg < 0.0f);
  double three99 = 3.99, minus = -2.5;
  klee_assert((unsigned)three99 == 3);
  klee_assert((long long)minus == -2);
  unsigned big = 4000000000u;
  double fromu = big;
  klee_assert(fromu > 3.9e9);
  int negi = -7;
  double fromi = negi;
  klee_assert(fromi == -7.0);
  double zero = 0.0;
  double nan = zero / zero;
  klee_assert(nan != nan);
  klee_assert(!(nan < 1.0));
  klee_assert(!(nan >= 1.0));
  double inf = 1.0 / zero;
  klee_assert(inf > 1e308);
  float third = 1.0f / 3.0f;
  double widened = third;
  klee_assert(widened != 1.0 / 3.0); /* float precision */
  klee_assert((float)(1.0 / 3.0) == third);

  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > k)
    return 1;
  return 0;
}
