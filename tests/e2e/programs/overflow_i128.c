// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// The *.with.overflow intrinsics on 128 bits (__builtin_add_overflow on unsigned __int128,
// __builtin_mul_overflow on __int128). a + 1 overflows exactly when a is all ones (2 paths);
// 2 * a overflows when a >= 2^126 or a < -2^126: impossible for a == -1 (all ones), possible
// either way otherwise: 1 + 2 = 3 paths.
#include "cairn.h"

int main(void) {
  unsigned long long hi, lo;
  klee_make_symbolic(&hi, sizeof hi, "hi");
  klee_make_symbolic(&lo, sizeof lo, "lo");
  unsigned __int128 a = ((unsigned __int128)hi << 64) | lo;

  int n = 0;
  unsigned __int128 r;
  if (__builtin_add_overflow(a, (unsigned __int128)1, &r)) {
    klee_assert(r == 0);
    klee_assert(hi == ~0ULL);
    n += 1;
  }
  __int128 s;
  if (__builtin_mul_overflow((__int128)a, (__int128)2, &s))
    n += 2;
  klee_assert(s == (__int128)(a << 1));
  return n;
}
