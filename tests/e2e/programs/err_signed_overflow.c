// CAIRN-ARGS: --search dfs --check-overflow
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: overflow signed-overflow 14
//
// With --check-overflow, signed int arithmetic that overflows (nsw) is an error; unsigned
// arithmetic wraps legally. Paths: x == INT_MAX (the error), then y > 0 or not: 3.
// (overflow_unchecked.c is the same program without the flag.)
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
