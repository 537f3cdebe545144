// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: user assume 15
//
// klee_assume of a condition that cannot hold on the path (x > 5 already assumed, then x < 3)
// is a user error; a satisfiable klee_assume never forks. Paths: y == 1 (the error) or not: 2.
#include "cairn.h"

int main(void) {
  int x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_assume(x > 5);
  if (y == 1)
    klee_assume(x < 3);
  return 0;
}
