// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// A loop whose bound is symbolic (n < 4): the loop condition forks on every iteration, one path
// per trip count 0..3: 4 paths.
#include "cairn.h"

int main(void) {
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < 4);
  int s = 0;
  for (unsigned i = 0; i < n; i++)
    s += (int)i;
  klee_assert(s == (int)(n * (n - 1) / 2));
  return s;
}
