// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Funnel shifts (llvm.fshl/fshr) through __builtin_rotateleft/rotateright on 8, 32 and 64
// bits, by constant and symbolic amounts, checked by identities. One branch (a rotation that
// gives back its input, e.g. by 0): 2 paths.
#include "cairn.h"

int main(void) {
  unsigned x, k;
  unsigned long long w;
  unsigned char b;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_make_symbolic(&w, sizeof w, "w");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_assume(k < 32);

  unsigned l = __builtin_rotateleft32(x, k);
  klee_assert(__builtin_rotateright32(l, k) == x);
  klee_assert(__builtin_rotateleft32(x, 8) == ((x << 8) | (x >> 24)));
  klee_assert(__builtin_rotateright32(x, 4) == ((x >> 4) | (x << 28)));
  klee_assert(__builtin_rotateleft64(w, 13) == ((w << 13) | (w >> 51)));
  klee_assert(__builtin_rotateleft8(b, 3) == (unsigned char)((b << 3) | (b >> 5)));
  klee_assert(__builtin_rotateleft32(x, 32 + k) == l); /* the amount is taken modulo 32 */
  if (l == x)
    return 1;
  return 0;
}
