// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: exec stack-overflow 10
//
// Unbounded recursion exhausts the engine's call stack: an exec/stack-overflow error at the
// recursive call. Paths: c == 1 (the error) or not: 2.
#include "cairn.h"

static int forever(int n) {
  return forever(n + 1) + 1;
}

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  if (c == 1)
    return forever(0);
  return 0;
}
