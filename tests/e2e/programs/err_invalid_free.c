// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: free invalid-free 19
// EXPECT-ERROR: free invalid-free 21
// EXPECT-ERROR: free invalid-free 23
//
// free of pointers malloc did not return: a stack variable, the inside of a heap block, a
// global. Paths: c == 1, 2, 3 (the three errors) and the correct free: 4.
#include "cairn.h"
#include <stdlib.h>

static int global;

int main(void) {
  int local = 0, c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *p = malloc(8);
  if (c == 1)
    free(&local);
  else if (c == 2)
    free(p + 1);
  else if (c == 3)
    free(&global);
  else
    free(p);
  return local;
}
