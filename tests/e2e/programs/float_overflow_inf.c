// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// A product that overflows is infinity: x * 1e300 is infinite for x above about 1.8e8, finite
// below. Paths: x <= 0 or NaN, x >= 1e10, then infinite or not: 4.
#include "cairn.h"
#include <math.h>

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0) {
    if (x < 1e10) {
      double y = x * 1e300;
      if (y == INFINITY)
        return 2;
      return 1;
    }
  }
  return 0;
}
