// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// Loads and stores of every width (i8, i16, i32, i64, i128) on one object through a union:
// little-endian byte order, partial overwrites, and an unaligned 4-byte load via memcpy. Two
// independent branches on bytes of the input: 4 paths.
#include "cairn.h"
#include <string.h>

union mem {
  unsigned char b[16];
  unsigned short h[8];
  unsigned w[4];
  unsigned long long d[2];
  unsigned __int128 q;
};

int main(void) {
  unsigned long long x;
  klee_make_symbolic(&x, sizeof x, "x");

  union mem m;
  m.d[0] = x;
  m.d[1] = ~x;
  klee_assert(m.b[0] == (x & 0xff));
  klee_assert(m.b[7] == (x >> 56));
  klee_assert(m.h[1] == ((x >> 16) & 0xffff));
  klee_assert(m.w[1] == (unsigned)(x >> 32));
  klee_assert(m.q == (((unsigned __int128)~x << 64) | x));

  m.b[3] = 0xAB;
  m.h[3] = 0x1234;
  klee_assert(m.w[0] == (((unsigned)x & 0x00FFFFFFu) | 0xAB000000u));
  klee_assert(m.w[1] == (((unsigned)(x >> 32) & 0xFFFFu) | 0x12340000u));

  unsigned v;
  memcpy(&v, &m.b[1], sizeof v);
  klee_assert(v == ((m.w[0] >> 8) | ((unsigned)m.b[4] << 24)));

  m.q = (unsigned __int128)1 << 100;
  klee_assert(m.b[12] == 0x10);
  klee_assert(m.d[0] == 0);

  int n = 0;
  if (((x >> 16) & 0xff) == 0x11)
    n += 1;
  if ((unsigned short)~x > 0x8000)
    n += 2;
  return n;
}
