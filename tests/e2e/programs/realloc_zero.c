// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr use-after-free 23
//
// realloc(p, 0) frees p and returns NULL, as glibc does (a concrete size, then a symbolic one
// that may be zero): with n == 0 the old block is gone, and writing to it is a use after free;
// otherwise the block moved to a new one of n bytes.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  char *p = malloc(4);
  p = realloc(p, 0);
  klee_assert(p == 0);
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < 3);
  char *q = malloc(4);
  char *r = realloc(q, n);
  if (r)
    free(r);
  else
    q[0] = 1;
  return 0;
}
// Paths: n == 0 (the use after free), and n in {1, 2}: the concrete size model takes one value
// of n and forks on it; the other side has exactly one value left, allocated too (as KLEE does):
// 3 paths, each with its test.
