// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 16
//
// memcpy (llvm.memcpy) writing one byte past the end of its 8-byte destination on one path.
// Paths: c == 1 (the error) or not: 2.
#include "cairn.h"
#include <string.h>

int main(void) {
  char src[16], dst[8];
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  memset(src, 'x', sizeof src);
  if (c == 1)
    memcpy(dst, src, 9);
  else
    memcpy(dst, src, 8);
  return dst[0];
}
