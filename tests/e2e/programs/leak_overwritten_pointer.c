// CAIRN-ARGS: --search dfs --check-leaks
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: leak unreachable-memory 18
//
// --check-leaks: overwriting the only pointer to a heap block loses it; the block is still
// allocated and unreachable when main returns, a leak at the return. Paths: c == 3 (the first
// block is lost) or not (the one block is freed): 2.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *p = malloc(8);
  if (c == 3)
    p = malloc(16);
  free(p);
  return 0;
}
