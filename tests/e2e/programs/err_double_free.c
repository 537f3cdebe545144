// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: free double-free 15
//
// Freeing a heap block twice on one path. Paths: c == 2 (the error) or not: 2.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *p = malloc(8);
  free(p);
  if (c == 2)
    free(p);
  return 0;
}
