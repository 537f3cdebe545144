// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 8
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// klee_get_obj_size of a symbolic-size object is its size expression: equal to n for every n,
// through a pointer at a symbolic offset into it too, so neither assertion forks. The branch on
// the size does: two paths.
#include <stdlib.h>

#include "cairn.h"

int main(void) {
  size_t n = (size_t)klee_range(1, 8, "n");
  char *p = malloc(n);
  size_t size = klee_get_obj_size(p);
  klee_assert(size == n);
  klee_assert(klee_get_obj_size(p + n - 1) == n);
  if (size > 4)
    return 1;
  return 0;
}
