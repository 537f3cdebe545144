// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// fabs (float, double, long double), fmin and fmax are the intrinsics llvm.fabs, llvm.minnum
// and llvm.maxnum: a NaN operand of fmin/fmax gives the other operand. On a symbolic operand
// they make float expressions; under --float concrete (the variant at the end) that path ends
// with a model error. Paths: x > 10, x < -5, the rest: 3.
//
#include "cairn.h"
#include <math.h>

int main(void) {
  volatile double d = -2.5, nz = -0.0;
  volatile float f = -1.5f;
  volatile long double l = -3.25L;
  klee_assert(__builtin_fabs(d) == 2.5);
  klee_assert(__builtin_fabsf(f) == 1.5f);
  klee_assert(__builtin_fabsl(l) == 3.25L);
  klee_assert(!signbit(__builtin_fabs(nz)));
  klee_assert(fmin(d, 1.0) == -2.5 && fmax(d, 1.0) == 1.0);
  klee_assert(fminf(f, NAN) == -1.5f && fmaxf(NAN, f) == -1.5f);

  int x;
  double s;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&s, sizeof s, "s");
  if (x > 10)
    return fmax(s, 0.0) > 1.0;
  if (x < -5)
    return 1;
  return 0;
}
// CAIRN-VARIANT: concrete --search dfs --float concrete
// EXPECT@concrete: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR@concrete: model symbolic-float 28
