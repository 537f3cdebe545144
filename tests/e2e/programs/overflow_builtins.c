// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=16 paths_partial=0 tests=16
//
// The *.with.overflow intrinsics through __builtin_add_overflow (signed i32, unsigned i8) and
// __builtin_mul_overflow (signed i32 by a constant, unsigned i64 by a constant). Each overflow
// flag is a branch; x + y and x * 1000 overflow independently (x large and y small, or x
// small and y large), u * 3 and c + 100 depend on other inputs: 2 * 2 * 2 * 2 = 16 paths.
#include "cairn.h"

int main(void) {
  int x, y;
  unsigned long long u;
  unsigned char c;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&u, sizeof u, "u");
  klee_make_symbolic(&c, sizeof c, "c");

  int n = 0, r, r2;
  unsigned long long p;
  unsigned char cs;
  if (__builtin_add_overflow(x, y, &r)) {
    klee_assert((x < 0) == (y < 0));
    klee_assert((r < 0) != (x < 0));
    n += 1;
  }
  klee_assert(r == (int)((unsigned)x + (unsigned)y));
  if (__builtin_mul_overflow(x, 1000, &r2))
    n += 2;
  klee_assert(r2 == (int)((unsigned)x * 1000u));
  if (__builtin_mul_overflow(u, 3ULL, &p))
    n += 4;
  klee_assert(p == u * 3);
  if (__builtin_add_overflow(c, (unsigned char)100, &cs)) {
    klee_assert(c >= 156);
    n += 8;
  }
  klee_assert(cs == (unsigned char)(c + 100));
  return n;
}
