// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// sin and pow have no SMT meaning: their symbolic argument is made concrete (the path is
// constrained to one value), the call is computed on it, and the test replays natively with
// the same bits: for a declaration (the minimal libc) the host computes it, under the full
// libc (the variant at the end) musl's code runs on the concrete value. Paths: x above 1 or
// not, one concrete call each: 2. Under -fno-math-errno clang calls llvm.sin and llvm.pow
// instead: the loader makes them calls of sin and pow again (the nomatherrno variants).
#include "cairn.h"
#include <math.h>

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 1.0) {
    double s = sin(x);
    klee_assert(s >= -1.0 && s <= 1.0);
    return 1;
  }
  double p = pow(x, 2.0);
  klee_assert(p >= 0 || p != p);
  return 0;
}
// CAIRN-VARIANT: full --search dfs --libc full
// CAIRN-VARIANT: nomatherrno --search dfs --cflag -fno-math-errno
// CAIRN-VARIANT: nomatherrno-full --search dfs --libc full --cflag -fno-math-errno
