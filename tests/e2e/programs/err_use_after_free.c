// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr use-after-free 18
// EXPECT-ERROR: ptr use-after-free 20
//
// Reads and writes through a pointer to a freed heap block. Paths: c == 1 (read after free),
// c == 2 (write after free), neither: 3.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *p = malloc(4);
  p[0] = 1;
  free(p);
  if (c == 1)
    return p[0];
  if (c == 2)
    p[3] = 7;
  return 0;
}
