// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// The classic first example: the sign of a symbolic int has three paths (negative, zero,
// positive), each with one test.
#include "cairn.h"

static int sign(int x) {
  if (x < 0)
    return -1;
  if (x == 0)
    return 0;
  return 1;
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  return sign(x);
}
