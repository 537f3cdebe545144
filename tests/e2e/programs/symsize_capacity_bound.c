// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4
// EXPECT: paths_completed=5 paths_partial=1 tests=6
//
// Sizes above the capacity are not explored, and the run says so: the allocation forks on
// n <= 4, and the state where n can be larger ends there as a partial path (its .early file
// names the capacity; summary.json's size_bound counts it), so the n == 5 bug below is never
// claimed absent. Lazily, the loop forks once per size: n = 0 to 4, 5 paths.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  if (n == 5) // only above the capacity
    p[5] = 0;
  for (size_t i = 0; i < n; i++)
    p[i] = 'x';
  free(p);
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 4 --size-mode eager
// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt
// EXPECT@merge-opt: paths_completed=1 paths_partial=1 tests=2
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR@concrete: model symbolic-size 14
// EXPECT-ERROR@concrete: ptr null 18
// Eager forks once per size up to the capacity after the same cut: the same paths. Merging
// joins the sizes leaving the loop: one path. The concrete model (KLEE's procedure) has no
// capacity: n == 0 (1 path), n > 2^31 with p NULL, where n == 5 cannot hold and p[0] is a
// null pointer error (1 path), and the sizes left end with the model error at the malloc.
