// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 16
//
// An out-of-bounds write to a heap block: p has 4 ints, n in 1..4 reaches p[4]. Paths: n in
// 1..3 (in bounds) or n == 4 (the error): 2.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int *p = malloc(4 * sizeof(int));
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= 4);
  p[n] = 1;
  int r = p[n];
  free(p);
  return r;
}
