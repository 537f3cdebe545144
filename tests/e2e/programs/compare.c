// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=9 paths_partial=0 tests=9
//
// Every integer comparison predicate (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge), checked
// against each other for all inputs, then branches: x < 0 (and, only then, (unsigned)x >
// 0xFFFFFF00 can go both ways): 3; times u <= v (then u == v both ways) or u > v (u == v
// impossible): 3; 9 paths.
#include "cairn.h"

int main(void) {
  int x, y;
  unsigned u, v;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&u, sizeof u, "u");
  klee_make_symbolic(&v, sizeof v, "v");

  klee_assert((x < y) == !(x >= y));
  klee_assert((x > y) == (y < x));
  klee_assert((x <= y) == !(x > y));
  klee_assert((x == y) == !(x != y));
  klee_assert((u < v) == !(u >= v));
  klee_assert((u > v) == (v < u));
  klee_assert((u <= v) == !(u > v));
  klee_assert(((unsigned)x < 0x80000000u) == (x >= 0));
  klee_assert((x < y) + (x == y) + (x > y) == 1);

  int n = 0;
  if (x < 0) {
    n += 1;
    if ((unsigned)x > 0xFFFFFF00u)
      n += 2;
  } else if ((unsigned)x > 0xFFFFFF00u) {
    klee_assert(0); /* impossible: non-negative x is below 2^31 */
  }
  if (u <= v) {
    n += 4;
    if (u == v)
      n += 8;
  } else if (u == v) {
    klee_assert(0); /* impossible */
  }
  return n;
}
