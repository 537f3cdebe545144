// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: free invalid-free 20
// EXPECT-ERROR: free double-free 21
//
// free() of a pointer chosen by a symbolic index is resolved to every object it may start, as
// KLEE does, not fixed to one of them: i == 0 frees a, i == 1 frees b (which the second free
// then frees twice), i == 2 is a pointer into the middle of a (an invalid free), i == 3 is NULL
// (nothing). Four paths, two of them errors.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  char *a = malloc(8), *b = malloc(8);
  char *table[4] = {a, b, a + 1, 0};
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 4);
  char *p = table[i];
  free(p);
  free(b);
  return 0;
}
