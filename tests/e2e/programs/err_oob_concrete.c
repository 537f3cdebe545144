// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 16
//
// A classic off-by-one loop (i <= 5 over a 5-element heap array) with concrete addresses, on
// one of two paths: the other path stops one element earlier. Paths: 2, one error.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  int *a = malloc(5 * sizeof(int));
  int last = c == 3 ? 5 : 4;
  for (int i = 0; i <= last; i++)
    a[i] = i;
  free(a);
  return 0;
}
