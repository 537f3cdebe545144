// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// 16-bit arithmetic: short and unsigned short loads and stores, sign and zero extension,
// wrapping add, shifts (shl, ashr on promoted values) and truncation to i16. Two independent
// branches: 4 paths.
#include "cairn.h"

int main(void) {
  short s;
  unsigned short u;
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&u, sizeof u, "u");

  unsigned short sum = u + 1000;
  klee_assert((unsigned short)(sum - 1000) == u);
  klee_assert((int)(short)u == (int)u - (int)((u >> 15) * 65536u));
  int widened = s;
  klee_assert(widened >= -32768);
  klee_assert(widened <= 32767);
  unsigned short shl = u << 4;
  klee_assert(shl == (u * 16u) % 65536u);
  short ash = s >> 3;
  klee_assert(ash * 8 <= s);
  klee_assert(s < ash * 8 + 8);
  unsigned short mixed = (unsigned short)(s ^ u);
  klee_assert((unsigned short)(mixed ^ u) == (unsigned short)s);

  int n = 0;
  if (s * 2 > 40000)
    n += 1;
  if (u == 0xBEEF)
    n += 2;
  return n;
}
