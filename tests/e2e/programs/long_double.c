// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// long double (x86_fp80) arithmetic on concrete values, like float and double: multiplication,
// addition, division, comparisons and conversions to and from double and int. The only
// symbolic input never reaches floating point: one branch, 2 paths, no error.
#include "cairn.h"

int main(void) {
  long double a = 1.5L, b = 2.0L, q = 0.25L, one = 1.0L, three = 3.0L;
  long double c = a * b + q;
  klee_assert(c == 3.25L);
  klee_assert((double)c == 3.25);
  long double third = one / three;
  klee_assert(third > 0.333333333333333L);
  klee_assert(third < 0.333333333333334L);
  int k = (int)(c * 4);
  klee_assert(k == 13);
  long double from = k;
  klee_assert(from - c * 4 == 0);

  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0)
    return 1;
  return 0;
}
