// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// abs, min and max: the runtime's abs() (llvm.abs), __builtin_abs (a select), and
// __builtin_elementwise_min/max on int and unsigned (llvm.smin/smax/umin/umax), checked by
// identities. INT_MIN is excluded (its absolute value is undefined). Paths: |x| == 7 or not,
// times max(x, y) == x or not: 4.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_assume(x != (int)0x80000000u);
  klee_assume(y != (int)0x80000000u);

  int a1 = abs(x);
  int a2 = __builtin_abs(y);
  klee_assert(a1 >= 0);
  klee_assert(a2 >= 0);
  klee_assert(a1 == ((x ^ (x >> 31)) - (x >> 31)));
  klee_assert((a2 == y) | (a2 == -y));
  int mx = __builtin_elementwise_max(x, y);
  int mn = __builtin_elementwise_min(x, y);
  unsigned umx = __builtin_elementwise_max((unsigned)x, (unsigned)y);
  unsigned umn = __builtin_elementwise_min((unsigned)x, (unsigned)y);
  klee_assert((unsigned)mx + (unsigned)mn == (unsigned)x + (unsigned)y);
  klee_assert(umx + umn == (unsigned)x + (unsigned)y);
  klee_assert(mx >= mn);
  klee_assert(umx >= umn);
  klee_assert((mx == x) | (mx == y));
  klee_assert((umn == (unsigned)x) | (umn == (unsigned)y));

  int n = 0;
  if (a1 == 7)
    n += 1;
  if (mx == x)
    n += 2;
  return n;
}
