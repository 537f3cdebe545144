// CAIRN-ARGS: --search dfs --check-overflow --cflag -O1
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: overflow signed-overflow 20
//
// A hand-written absolute value of INT_MIN under --check-overflow (err_abs_int_min calls abs()).
// At -O1 clang turns `x < 0 ? -x : x` into llvm.abs(x, i1 true), whose second argument says
// the result is poison for INT_MIN (the negation there overflows): the engine forks that value
// off as a signed overflow, and the native replay's UndefinedBehaviorSanitizer reports the
// negation. (A call of abs() becomes the same intrinsic at -O1, but clang 15's sanitizer does
// not check it, so a replay could not reproduce that: the program negates by hand.) Paths:
// x == INT_MIN (the error), then |x| > 1000 or not: 3. The volatile store keeps the branch a
// branch at -O1.
#include "cairn.h"

static volatile int sink;

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int a = x < 0 ? -x : x;
  if (a > 1000)
    sink = 1;
  return 0;
}
