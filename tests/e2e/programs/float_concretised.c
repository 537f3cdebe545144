// CAIRN-ARGS: --search dfs --float concrete
// EXPECT: paths_completed=4 paths_partial=0 tests=3
// EXPECT-ERROR: model symbolic-float 40
//
// Under --float concrete, floating point on symbolic values the path has fixed runs concretely: x
// assumed equal to 3 (long double arithmetic, conversions both ways, a comparison), y fixed by
// klee_get_value_i32 (to double), and z fixed by two branches to 5 (to float). z's other paths
// (z <= 4; z >= 6) reach the conversion with many values: a model error there, once per line
// with a test. Paths: z <= 4 (the error), z == 5, z >= 6 (the error again, no test); then the
// final branch on w splits z == 5 in two: 4 paths, 3 tests.
#include "cairn.h"

int main(void) {
  int x, y, z, w;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&z, sizeof z, "z");
  klee_make_symbolic(&w, sizeof w, "w");

  klee_assume(x == 3);
  long double lx = x;
  long double q = lx / 4 + 0.5L;
  klee_assert(q == 1.25L);
  klee_assert((int)(q * 8) == 10);
  unsigned long long u = (unsigned long long)(lx * 1e18L);
  klee_assert(u == 3000000000000000000ULL);
  klee_assert((float)lx == 3.0f);

  int fixed = klee_get_value_i32(y);
  double dy = y; // y itself, now fixed to `fixed`
  klee_assert(dy == (double)fixed);
  klee_assert(dy * 0.5 == fixed / 2.0);

  float fz = 0;
  if (z > 4) {
    if (z < 6)
      fz = z;
  }
  if (fz == 0)
    fz = (float)z;
  klee_assert(fz == 5.0f);

  if (w > 0)
    return 1;
  return 0;
}
// With symbolic floats (the variant), (float)z on z's other paths is solved: fz == 5.0f fails
// there instead, an assertion at line 41; the same 4 paths and 3 tests.
// CAIRN-VARIANT: symbolic --search dfs
// EXPECT@symbolic: paths_completed=4 paths_partial=0 tests=3
// EXPECT-ERROR@symbolic: assert assertion-failure 41
