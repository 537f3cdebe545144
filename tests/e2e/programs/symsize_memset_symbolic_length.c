// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 8
// EXPECT: paths_completed=3 paths_partial=1 tests=4
// EXPECT-ERROR: ptr out-of-bounds 25
//
// memset of a symbolic length keeps the length symbolic under the symbolic-size model: p[4]
// is out of bounds only for n = 3 and 4, which fixing the length at the memset (to 0, as the
// concrete model does) would miss. The memset fits every n (no fork) and writes byte i iff
// i < n: any byte below n reads 'a'. Paths: n > 8 cut by the capacity (partial), n <= 2,
// n = 3 or 4 (the error), n = 5 to 8.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 16);
  char *p = malloc(n);
  memset(p, 'a', n);
  if (n > 2) {
    size_t k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < n);
    klee_assert(p[k] == 'a');
    p[4] = 'b';
  }
  free(p);
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 8 --size-mode eager
// EXPECT@eager: paths_completed=9 paths_partial=1 tests=9
// EXPECT-ERROR@eager: ptr out-of-bounds 25
// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 8 --size-mode merge-opt
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR@concrete: model symbolic-size 18
// Eager: one path per size 0 to 8, n = 3 and 4 both the error (one test), and the cut. The
// concrete model fixes n to 0 at the malloc (1 path) and ends the other sizes with its model
// error there: the p[4] bug is not found.
