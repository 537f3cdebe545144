// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// Dividing a double by a symbolic zero is no error: 1 / +0 is +infinity, 1 / -0 is -infinity,
// and the sign of the zero decides which. Paths: x not zero, +0, -0: 3.
#include "cairn.h"
#include <math.h>

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x != 0.0)
    return 0;
  double r = 1.0 / x;
  if (r == INFINITY)
    return 1;
  return 2;
}
