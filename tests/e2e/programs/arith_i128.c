// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// 128-bit arithmetic with __int128: building a value from two 64-bit halves (zext, shl, or),
// taking it apart again (lshr, trunc), multiplication by a constant, addition and a signed
// comparison. Paths: v + 1 == 0 (v all ones, so negative), or not and v negative or not: 3.
#include "cairn.h"

int main(void) {
  unsigned long long hi, lo;
  klee_make_symbolic(&hi, sizeof hi, "hi");
  klee_make_symbolic(&lo, sizeof lo, "lo");

  unsigned __int128 v = ((unsigned __int128)hi << 64) | lo;
  klee_assert((unsigned long long)(v >> 64) == hi);
  klee_assert((unsigned long long)v == lo);
  unsigned __int128 w = v * 3;
  klee_assert(w == v + v + v);
  __int128 sv = (__int128)v;
  klee_assert((sv < 0) == (int)(hi >> 63));
  klee_assert((__int128)(sv >> 127) + 1 <= 1);

  int n = 0;
  unsigned __int128 next = v + 1;
  if (next == 0)
    n += 1;
  if (sv < 0)
    n += 2;
  return n;
}
