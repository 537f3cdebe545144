// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr out-of-bounds 21
// EXPECT-ERROR: ptr out-of-bounds 23
//
// Heap blocks whose size changed or is zero: after realloc shrinks a block to 4 bytes, byte 5
// is out of bounds; malloc(0) returns a block with no valid byte. Paths: c == 1, c == 2 (the
// two errors), neither: 3.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *p = malloc(8);
  p[5] = 1;
  p = realloc(p, 4);
  char *z = malloc(0);
  int r = 0;
  if (c == 1)
    r = p[5];
  if (c == 2)
    r = z[0];
  free(p);
  free(z);
  return r;
}
