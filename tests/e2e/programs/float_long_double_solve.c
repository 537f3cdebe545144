// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// x87 long double (80 bits in a 16-byte object) solved symbolically: x + 0.5 == 10 only for
// x == 9.5, and x rounded to double can exceed 1e300. Paths: 10, above 1e300, the rest: 3.
#include "cairn.h"

int main(void) {
  long double x;
  klee_make_symbolic(&x, sizeof x, "x");
  long double y = x + 0.5L;
  if (y == 10.0L)
    return 1;
  if ((double)x > 1e300)
    return 2;
  return 0;
}
