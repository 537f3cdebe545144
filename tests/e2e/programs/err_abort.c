// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: abort abort 15
// EXPECT-ERROR: abort abort 17
//
// abort() and klee_abort() end their paths with abort errors. Paths: x == 1, x == 2 (the two
// errors), neither: 3.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 1)
    abort();
  if (x == 2)
    klee_abort();
  return 0;
}
