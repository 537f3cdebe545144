// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// 8-bit arithmetic: unsigned/signed char loads, promotions (zext/sext), add/sub/mul/div/rem,
// bitwise operations and truncation back to i8. The assertions hold for every input (no path
// fails). Paths: b == 0 (no carry possible) or b != 0 with or without a carry out of a + b
// (3), times c < -100 or not (2): 6.
#include "cairn.h"

int main(void) {
  unsigned char a, b;
  signed char c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");

  unsigned char sum = a + b, diff = a - b, prod = a * b;
  unsigned char andv = a & b, orv = a | b, xorv = a ^ b, notv = ~a;
  klee_assert(sum == ((unsigned)a + (unsigned)b) % 256u);
  klee_assert((unsigned char)(sum - b) == a);
  klee_assert((unsigned char)(diff + b) == a);
  klee_assert(prod == ((unsigned)a * (unsigned)b & 0xffu));
  klee_assert((andv | xorv) == orv);
  klee_assert((unsigned char)(notv + a) == 255);
  klee_assert((c < 0) == ((unsigned char)c >= 128));
  klee_assert((int)c == (int)(((unsigned)(unsigned char)c ^ 0x80u)) - 0x80);
  klee_assert((signed char)(c >> 1) * 2 + (c & 1) == c);

  int n = 0;
  if (b != 0) {
    klee_assert(a / b * b + a % b == a);
    klee_assert(a % b < b);
    if (sum < a) /* carry out of the 8-bit addition */
      n += 1;
  }
  if (c < -100)
    n += 2;
  return n;
}
