// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// 32-bit sdiv, srem, udiv and urem: by constants (checked by range and sign properties; the
// identity q * 7 + r == a holds too but takes Z3 longer than this corpus allows) and by
// symbolic divisors assumed non-zero (so no division-by-zero path). Paths: 100 / d == 0
// (d > 100) or not, times -100 / b == -3 (b in 26..33) or not: 4.
#include "cairn.h"

int main(void) {
  int a, b;
  unsigned c, d;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&d, sizeof d, "d");

  int q7 = a / 7, r7 = a % 7;
  klee_assert(r7 > -7);
  klee_assert(r7 < 7);
  klee_assert((r7 < 0) <= (a < 0));
  unsigned uq = c / 10, ur = c % 10;
  klee_assert(uq <= 429496729u);
  klee_assert(ur < 10);
  klee_assert((-7) / 2 == -3);
  klee_assert((-7) % 2 == -1);

  klee_assume(d != 0);
  klee_assume(b > 0);
  int n = 0;
  unsigned t = 100u / d;
  if (t == 0)
    n += 1;
  int s = -100 / b;
  if (s == -3)
    n += 2;
  klee_assert(-100 % b > -b);
  return n;
}
