// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 8
// EXPECT: paths_completed=3 paths_partial=1 tests=4
// EXPECT-ERROR: ptr out-of-bounds 19
//
// memcpy of a symbolic length under the symbolic-size model: the destination holds n bytes
// for every n, but the source only 4, so the copy reads past it for n = 5 to 8 only (an
// error the test gives such an n for). Where it fits, byte i is copied iff i < n. Paths:
// n > 8 cut by the capacity (partial), n = 5 to 8 (the error), n = 0, n = 1 to 4.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  char src[4] = {'a', 'b', 'c', 'd'};
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 16);
  char *dst = malloc(n);
  memcpy(dst, src, n);
  if (n > 0)
    klee_assert(dst[n - 1] == src[n - 1]);
  free(dst);
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 8 --size-mode eager
// EXPECT@eager: paths_completed=9 paths_partial=1 tests=7
// EXPECT-ERROR@eager: ptr out-of-bounds 19
// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 8 --size-mode merge-opt
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR@concrete: model symbolic-size 18
// Eager: one path per size 0 to 8, n = 5 to 8 the error (one test), and the cut. The concrete
// model fixes n to 0 at the malloc (1 path) and ends the other sizes with its model error.
