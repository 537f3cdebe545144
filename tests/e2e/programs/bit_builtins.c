// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// Bit intrinsics: ctpop, ctlz, cttz, bswap (16, 32 and 64 bits) through __builtin_popcount,
// __builtin_clz, __builtin_ctz, __builtin_bswap*, checked by identities that hold for every
// input (counting identities such as popcount(w) + popcount(~w) == 64 are valid too, but take
// Z3 longer than this corpus allows). Paths: x == 0 (clz/ctz undefined, skipped), or x != 0 and a power of two or not: 3.
#include "cairn.h"

int main(void) {
  unsigned x;
  unsigned long long w;
  unsigned short h;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&w, sizeof w, "w");
  klee_make_symbolic(&h, sizeof h, "h");

  int pc = __builtin_popcount(x);
  klee_assert(pc <= 32);
  klee_assert(__builtin_popcount(__builtin_bswap32(x)) == pc);
  klee_assert(__builtin_bswap32(__builtin_bswap32(x)) == x);
  klee_assert((__builtin_bswap32(x) & 0xff) == (x >> 24));
  klee_assert((__builtin_bswap64(w) >> 56) == (w & 0xff));
  klee_assert(__builtin_popcountll(w) <= 64);
  klee_assert(__builtin_bswap16(h) == (unsigned short)((h << 8) | (h >> 8)));
  klee_assert(__builtin_popcount(0xF0F0u) == 8);
  klee_assert(__builtin_clz(1u) == 31);
  klee_assert(__builtin_ctz(0x80u) == 7);

  int n = 0;
  if (x != 0) {
    int lz = __builtin_clz(x), tz = __builtin_ctz(x);
    klee_assert(lz + tz <= 31);
    klee_assert((x >> tz) & 1);
    klee_assert(x >> (31 - lz) == 1);
    if (pc == 1)
      n = 1;
  }
  return n;
}
