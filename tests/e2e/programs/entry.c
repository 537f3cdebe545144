// CAIRN-ARGS: --search dfs --entry start
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// --entry starts the run at another function than main (main, which would fail, never runs).
// One branch: 2 paths, no error.
#include "cairn.h"

int start(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 3)
    return 1;
  return 0;
}

int main(void) {
  klee_assert(0);
  return 0;
}
