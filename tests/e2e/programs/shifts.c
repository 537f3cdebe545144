// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// shl, lshr and ashr by a symbolic amount below the width, on 32 and 64 bits, checked by
// identities. Paths: k == 31 or not, times a == -1 or not (both possible either way): 4.
#include "cairn.h"

int main(void) {
  unsigned u, k;
  int s;
  klee_make_symbolic(&u, sizeof u, "u");
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(k < 32);

  unsigned l = u << k, r = u >> k;
  int a = s >> k;
  klee_assert((l >> k) == (u & (0xFFFFFFFFu >> k)));
  klee_assert((r << k) == (u & (0xFFFFFFFFu << k)));
  klee_assert((a < 0) == (s < 0));
  klee_assert((unsigned)(a >> (31 - k)) + 1 <= 1); /* the shifts together cover 31 bits */
  unsigned long long w = ((unsigned long long)u << 32) >> k;
  klee_assert((unsigned)(w >> (32 - k)) == u);
  long long sw = (long long)s << 32;
  klee_assert((sw >> 32) == s);

  int n = 0;
  if (k == 31)
    n += 1;
  if (a == -1)
    n += 2;
  return n;
}
