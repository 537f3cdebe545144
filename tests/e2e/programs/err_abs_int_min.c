// CAIRN-ARGS: --search dfs --check-overflow
// EXPECT: paths_completed=7 paths_partial=0 tests=6
// EXPECT-ERROR: overflow signed-overflow 21
// EXPECT-ERROR: overflow signed-overflow 24
//
// abs(INT_MIN) and llabs(LLONG_MIN) under --check-overflow: the runtime's abs and llabs are
// llvm.abs(x, i1 true), poison for the minimum value, which the engine forks off as a signed
// overflow at the call's line. (The replay build has its own abs and llabs, whose negation the
// sanitizer checks: the C library's are not instrumented.) Paths: x == INT_MIN (the error),
// else |x| > 1000 or not, each then y == LLONG_MIN (the error, a test only the first time),
// |y| > 1000 or not: 1 + 2 * 3 = 7 paths, 6 tests.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int x;
  long long y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  int r = 0;
  int a = abs(x);
  if (a > 1000)
    r += 1;
  long long b = llabs(y);
  if (b > 1000)
    r += 2;
  return r;
}
