// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=15 paths_partial=0 tests=15
//
// 64-bit arithmetic: add, sub, xor, shl/lshr/ashr, sdiv/srem by a constant and udiv/urem by a
// symbolic divisor, on long long and unsigned long long. (Identities such as d * 7 + m == x
// over 64-bit division are valid but too hard for Z3 in a few seconds; the checks here are the
// cheap ones, and the branches ask satisfiable questions.)
// Paths over y: y == 0, or y != 0 with 10^12 % y == 1 or not, each with y > 2^32 - 1 or not
// (y = 3 and y = 999999999999 both leave remainder 1): 1 + 4 = 5. Over x: x < -5e9 (then
// x % 7 <= 0, so x % 7 == 3 is impossible) or not (x % 7 == 3 both ways): 3. 5 * 3 = 15.
#include "cairn.h"

int main(void) {
  long long x;
  unsigned long long y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");

  unsigned long long s = y + 0x123456789ULL;
  klee_assert(s - 0x123456789ULL == y);
  klee_assert((y ^ (unsigned long long)x ^ (unsigned long long)x) == y);
  klee_assert(((y << 7) >> 7) == (y & (~0ULL >> 7)));
  klee_assert((unsigned long long)(x >> 63) + 1 <= 1); /* ashr gives 0 or -1 */
  long long d = x / 7, m = x % 7;
  klee_assert((d < 0) <= (x < 0)); /* the quotient truncates towards zero */

  int n = 0;
  if (y != 0) {
    unsigned long long q = 1000000000000ULL / y, r = 1000000000000ULL % y;
    (void)q; /* udiv by a symbolic divisor (no check: 64-bit division queries are slow) */
    if (r == 1)
      n += 8;
    if (y > 0xFFFFFFFFULL)
      n += 1;
  }
  if (x < -5000000000LL)
    n += 2;
  if (m == 3)
    n += 4;
  return n;
}
