// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 17
//
//
// A write through a symbolic index with a wide range: i < 1000 into a 4-int heap block. The
// inputs split into two paths: i < 4 (in bounds) and 4 <= i < 1000 (out of bounds: one error
// path, as in KLEE, not one per address). 2 paths, 2 tests.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int *a = malloc(4 * sizeof(int));
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 1000);
  a[i] = 1;
  int r = a[0];
  free(a);
  return r;
}
