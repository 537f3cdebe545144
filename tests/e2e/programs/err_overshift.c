// CAIRN-ARGS: --search dfs --check-overshift
// EXPECT: paths_completed=5 paths_partial=0 tests=5
// EXPECT-ERROR: overflow overshift 19
// EXPECT-ERROR: overflow overshift 20
//
// With --check-overshift, shifting by the value's width or more is an error: a 32-bit shl by
// s & 63 and a 64-bit lshr by t & 127. Paths: s & 63 >= 32 (error); t & 127 >= 64 (error);
// then y < 0 (1), or not and z == 0 or not (2): 5.
#include "cairn.h"

int main(void) {
  unsigned s, t;
  int x;
  unsigned long long w;
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&t, sizeof t, "t");
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&w, sizeof w, "w");
  int y = x << (s & 63);
  unsigned long long z = w >> (t & 127);
  if (y < 0)
    return 1;
  if (z == 0)
    return 2;
  return 0;
}
