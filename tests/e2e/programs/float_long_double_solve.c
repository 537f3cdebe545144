// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// x87 long double (80 bits in a 16-byte object) solved symbolically: 3x + 1 == 10 only for
// x == 3, and is negative for x below -1/3. Paths: 10, negative, the rest: 3.
#include "cairn.h"

int main(void) {
  long double x;
  klee_make_symbolic(&x, sizeof x, "x");
  long double y = x * 3.0L + 1.0L;
  if (y == 10.0L)
    return 1;
  if (y < 0)
    return 2;
  return 0;
}
