// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=8 paths_partial=0 tests=8
//
// More *.with.overflow intrinsics: ssub on i16 (__builtin_sub_overflow on shorts), usub on i64
// (unsigned borrow), smul on i64 by a constant, umul on i16. Three independent overflow
// branches: 8 paths; the i16 umul checks its result without branching.
#include "cairn.h"

int main(void) {
  short a, b;
  unsigned long long u, v;
  long long s;
  unsigned short h;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&u, sizeof u, "u");
  klee_make_symbolic(&v, sizeof v, "v");
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&h, sizeof h, "h");

  int n = 0;
  short d;
  if (__builtin_sub_overflow(a, b, &d))
    n += 1;
  klee_assert(d == (short)(a - b));
  unsigned long long e;
  if (__builtin_sub_overflow(u, v, &e)) /* (u < v here: valid, but slow for Z3 as encoded) */
    n += 2;
  klee_assert(e == u - v);
  long long m;
  if (__builtin_mul_overflow(s, 10LL, &m))
    n += 4;
  klee_assert(m == (long long)((unsigned long long)s * 10ULL));
  unsigned short p;
  _Bool o = __builtin_mul_overflow(h, (unsigned short)3, &p);
  klee_assert(o == (h > 21845));
  klee_assert(p == (unsigned short)(h * 3u));
  return n;
}
