// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// llvm.memcpy, llvm.memset and llvm.memmove (memcpy/memset/memmove calls and struct copies
// become the intrinsics) on symbolic bytes, with overlapping moves in both directions. One
// branch: 2 paths.
#include "cairn.h"
#include <string.h>

struct rec {
  int a;
  char name[5];
  long long b;
};

int main(void) {
  unsigned char src[8];
  klee_make_symbolic(src, sizeof src, "src");

  unsigned char dst[8];
  memcpy(dst, src, sizeof dst);
  klee_assert(dst[5] == src[5]);
  memset(dst + 2, 0x5A, 3); /* s0 s1 Z Z Z s5 s6 s7 */
  klee_assert(dst[2] == 0x5A);
  klee_assert(dst[4] == 0x5A);
  klee_assert(dst[5] == src[5]);
  memmove(dst + 1, dst, 6); /* s0 s0 s1 Z Z Z s5 s7 */
  klee_assert(dst[1] == src[0]);
  klee_assert(dst[2] == src[1]);
  klee_assert(dst[6] == src[5]);
  klee_assert(dst[7] == src[7]);
  memmove(dst, dst + 2, 5); /* s1 Z Z Z s5 Z s5 s7 */
  klee_assert(dst[0] == src[1]);
  klee_assert(dst[3] == 0x5A);
  klee_assert(dst[4] == src[5]);
  klee_assert(dst[5] == 0x5A);
  klee_assert(dst[6] == src[5]);

  struct rec r1 = {src[0], "abcd", (long long)src[1] << 40}, r2;
  r2 = r1;
  klee_assert(r2.a == src[0]);
  klee_assert(r2.name[3] == 'd');
  klee_assert(r2.b >> 40 == src[1]);
  memset(&r2, 0, sizeof r2);
  klee_assert(r2.b == 0);

  if (src[0] == src[7])
    return 1;
  return 0;
}
