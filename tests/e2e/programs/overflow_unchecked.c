// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// err_signed_overflow.c without --check-overflow: the overflow is not checked, x + 1 wraps,
// and only y > 0 branches: 2 paths, no error.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned u = (unsigned)x * 3u + 7u;
  int y = x + 1;
  if (y > 0)
    return (int)(u & 1);
  return 0;
}
