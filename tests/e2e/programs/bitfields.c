// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Bit-fields: unsigned and signed fields of 3, 5, 4 and 20 bits packed into one word, written
// from a symbolic value (masking, shifting, read-modify-write of the containing word) and read
// back with zero or sign extension. One branch on the signed field: 2 paths.
#include "cairn.h"

struct flags {
  unsigned a : 3;
  unsigned b : 5;
  signed c : 4;
  unsigned d : 20;
};

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  struct flags f = {0, 0, 0, 0};
  f.d = 12345;
  f.a = x;
  f.b = x >> 3;
  f.c = (int)(x >> 8);
  klee_assert(f.a == (x & 7));
  klee_assert(f.b == ((x >> 3) & 31));
  klee_assert(f.c == (int)(((x >> 8) & 15) ^ 8) - 8);
  klee_assert(f.d == 12345);
  f.a++;
  klee_assert(f.a == ((x + 1) & 7));
  klee_assert(f.b == ((x >> 3) & 31));
  if (f.c < 0)
    return 1;
  return 0;
}
