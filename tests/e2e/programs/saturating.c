// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
//
// Saturating arithmetic (llvm.uadd.sat, llvm.ssub.sat through __builtin_elementwise_add_sat
// and sub_sat; InstCombine also forms them from clamping code at -O1 and above): the result
// sticks at the type's limit instead of wrapping. Paths: u + 100 saturates or not, times
// s - 100 saturates or not: 4.
#include "cairn.h"

int main(void) {
  unsigned u;
  int s;
  klee_make_symbolic(&u, sizeof u, "u");
  klee_make_symbolic(&s, sizeof s, "s");
  unsigned us = __builtin_elementwise_add_sat(u, 100u);
  int ss = __builtin_elementwise_sub_sat(s, 100);
  klee_assert(us >= u);
  klee_assert(ss <= s);
  int n = 0;
  if (us == 0xFFFFFFFFu)
    n += 1;
  if (ss == (int)0x80000000u)
    n += 2;
  return n;
}
