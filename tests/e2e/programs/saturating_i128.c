// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// Saturating arithmetic on 128 bits (llvm.uadd.sat.i128, llvm.ssub.sat.i128), where no wider
// bit-vector holds the exact result. u + 100 saturates when u >= 2^128 - 101, and s - 100 when
// s < -2^127 + 100. Both would need s near -1 and near -2^127: 3 paths.
#include "cairn.h"

int main(void) {
  unsigned long long hi, lo;
  klee_make_symbolic(&hi, sizeof hi, "hi");
  klee_make_symbolic(&lo, sizeof lo, "lo");
  unsigned __int128 u = ((unsigned __int128)hi << 64) | lo;
  __int128 s = (__int128)u;
  unsigned __int128 us = __builtin_elementwise_add_sat(u, (unsigned __int128)100);
  __int128 ss = __builtin_elementwise_sub_sat(s, (__int128)100);
  klee_assert(us >= u);
  klee_assert(ss <= s);
  int n = 0;
  if (us == ~(unsigned __int128)0)
    n += 1;
  if (ss == (__int128)((unsigned __int128)1 << 127))
    n += 2;
  return n;
}
