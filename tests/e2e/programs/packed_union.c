// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Unaligned accesses through a packed struct (an int at offset 1, a long long at offset 7),
// its raw bytes, type punning between float and int through a union (concrete), an array of
// _Bool, and a 3-byte struct copy. One branch on the unaligned int: 2 paths.
#include "cairn.h"
#include <string.h>

struct __attribute__((packed)) pk {
  char c;
  int i;
  short s;
  long long l;
};

union fu {
  float f;
  unsigned u;
};

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  struct pk p;
  p.c = 'a';
  p.i = x;
  p.s = 7;
  p.l = (long long)x << 20;
  klee_assert(sizeof p == 15);
  klee_assert(p.i == x);
  klee_assert(p.l >> 20 == x);
  unsigned char raw[15];
  memcpy(raw, &p, sizeof p);
  klee_assert(raw[0] == 'a');
  klee_assert(raw[1] == (unsigned char)x);
  klee_assert(raw[5] == 7);

  union fu f;
  f.f = 1.0f;
  klee_assert(f.u == 0x3f800000u);
  f.u = 0x40490fdbu;
  klee_assert(f.f > 3.14f);

  _Bool flags[4] = {1, 0, 1, 1};
  int cnt = 0;
  for (int i = 0; i < 4; i++)
    cnt += flags[i];
  klee_assert(cnt == 3);
  struct three {
    char a, b, c;
  } t1 = {1, 2, 3}, t2;
  t2 = t1;
  klee_assert(t2.c == 3);

  if (p.i > 0)
    return 1;
  return 0;
}
