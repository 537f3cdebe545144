// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// x != x holds exactly for NaN: the solver finds one (isnan agrees on it), and a number that is
// its own negation is a zero. Paths: NaN, zero, the rest: 3.
#include "cairn.h"
#include <math.h>

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x != x) {
    klee_assert(isnan(x));
    return 1;
  }
  if (x == -x)
    return 2;
  return 0;
}
