// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// Casts: trunc to i8/i16, sext and zext to i64, ptrtoint and inttoptr on a stack array, and a
// select for the sign-extension check. Paths: c = (signed char)x negative (then uc == 200 both
// ways) or not (uc == 200 impossible): 3.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");

  signed char c = (signed char)x;
  unsigned char uc = (unsigned char)x;
  short sh = (short)x;
  long long ll = x;
  unsigned long long ull = (unsigned)x;
  klee_assert((int)c == (int)(((unsigned)x & 0xffu) ^ 0x80u) - 0x80);
  klee_assert((unsigned)uc == ((unsigned)x & 0xffu));
  klee_assert((int)sh == (int)(((unsigned)x & 0xffffu) ^ 0x8000u) - 0x8000);
  klee_assert((ll >> 32) == (x < 0 ? -1 : 0));
  klee_assert((ull >> 32) == 0);
  klee_assert((unsigned long long)ll - ull == (x < 0 ? 0xFFFFFFFF00000000ULL : 0));
  klee_assert((int)ll == x);

  int arr[4] = {1, 2, 3, 4};
  unsigned long addr = (unsigned long)&arr[1];
  int *p = (int *)(addr + sizeof(int));
  klee_assert(*p == 3);
  klee_assert((unsigned long)p - (unsigned long)arr == 2 * sizeof(int));

  int n = 0;
  if (c < 0) {
    n += 1;
    if (uc == 200)
      n += 2;
  } else if (uc == 200) {
    klee_assert(0); /* impossible: 200 is negative as a signed char */
  }
  return n;
}
