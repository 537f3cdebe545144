// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4
// EXPECT: paths_completed=5 paths_partial=1 tests=6
// EXPECT-ERROR: ptr out-of-bounds 16
//
// A variable-length array of nondeterministic length, SV-COMP memory-safety style: filling it
// is fine, but a[n - 1] is out of bounds when n is 0. The allocation goes through the
// symbolic-size model like malloc does.
#include "cairn.h"

int main(void) {
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  char a[n];
  for (unsigned i = 0; i < n; i++)
    a[i] = 'a';
  a[n - 1] = 0;
  return a[0];
}

// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt
// EXPECT@merge-opt: paths_completed=2 paths_partial=1 tests=3
// EXPECT-ERROR@merge-opt: ptr out-of-bounds 16
// Both modes also have one partial path: n > 4, above the capacity, is not explored; the
// allocation forks on n <= 4 and the other side ends there.
