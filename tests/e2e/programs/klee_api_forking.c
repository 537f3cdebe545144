// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// klee_set_forking(0): a branch both ways feasible does not fork; the path follows the true
// side and keeps its condition. Per path: x > 10 does not fork (the else side with its
// failing assertion is never run), y > 0 forks again; on the side where y > 0, forking is off
// and y > 100 follows its true side (the assertion after it holds); on the other side it is
// still on and y < -5 forks. Three paths, no errors.
#include "cairn.h"

int main(void) {
  int x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_set_forking(0);
  if (x > 10)
    x = 10;
  else
    klee_assert(0);
  klee_set_forking(1);
  if (y > 0) {
    klee_set_forking(0);
    if (y > 100)
      y = 100;
    klee_assert(y == 100);
  } else {
    if (y < -5)
      return 1;
  }
  return 0;
}
