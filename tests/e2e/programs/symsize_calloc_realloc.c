// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 6
// EXPECT: paths_completed=10 paths_partial=0 tests=6
// EXPECT-ERROR: ptr out-of-bounds 28
//
// calloc and realloc of symbolic sizes: the zero-filled object, grown by realloc, keeps its
// contents, and the bytes past the old size are writable; one byte past the new size is not.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 4);
  unsigned char *p = calloc(n, 1);
  unsigned sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += p[i];
  klee_assert(sum == 0);
  unsigned char *q = realloc(p, n + 2);
  q[n] = 1;
  q[n + 1] = 2;
  for (size_t i = 0; i < n; i++)
    klee_assert(q[i] == 0);
  klee_assert(q[n] + q[n + 1] == 3);
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  if (k == 7)
    q[n + 2] = 3;
  free(q);
  return 0;
}

// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 6 --size-mode merge-opt
// EXPECT@merge-opt: paths_completed=3 paths_partial=0 tests=2
// EXPECT-ERROR@merge-opt: ptr out-of-bounds 28
