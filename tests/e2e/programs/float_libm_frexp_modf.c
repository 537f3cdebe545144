// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// frexp, ldexp and modf on a symbolic float, computed as musl's code does, with no fork: the
// fraction is in [0.5, 1) and ldexp undoes frexp for every finite nonzero x (the assertions
// cannot fail); modf splits -3.25 into -3 and -0.25, never into -3 and +0.25. Paths: x zero,
// x not finite; for the others: a fraction of 0.25 (x = 3.25), of -0.25 with -3 (x = -3.25) or
// with another integral part, or another fraction: 6.
#include "cairn.h"
#include <math.h>

int main(void) {
  float x;
  klee_make_symbolic(&x, sizeof x, "x");
  int e;
  float m = frexpf(x, &e);
  if (x != 0 && isfinite(x)) {
    klee_assert(fabsf(m) >= 0.5f && fabsf(m) < 1.0f);
    klee_assert(ldexpf(m, e) == x);
  }
  float whole;
  float part = modff(x, &whole);
  klee_assert(!(part == 0.25f && whole == -3.0f));
  if (part == -0.25f && whole == -3.0f)
    return 1;
  return 0;
}
