// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// long double (x86_fp80, 10 bytes stored in 16) on concrete values wherever float and double
// run: through memory (an array, a struct field, a volatile, its bytes), as a parameter and a
// result, every conversion to and from integers of both signs and widths and from and to float
// and double, every comparison predicate with NaN and infinity, fabsl. Every
// assertion holds; the one symbolic branch at the end makes the 2 paths.
#include "cairn.h"
#include <math.h>
#include <string.h>

struct Pair {
  long double a;
  int tag;
  long double b;
};

static long double scaled(long double v, int k) { return v * k; }

int main(void) {
  long double third = 1.0L / 3;
  volatile long double kept = third;
  klee_assert(kept == third);
  klee_assert(sizeof(long double) == 16);

  unsigned char raw[sizeof(long double)];
  long double one = 1.0L;
  memcpy(raw, &one, sizeof one);
  klee_assert(raw[7] == 0x80 && raw[8] == 0xff && raw[9] == 0x3f && raw[0] == 0);

  struct Pair p = {scaled(0.75L, 2), 7, scaled(third, 3)};
  long double arr[3] = {p.a, p.b, (long double)p.tag};
  klee_assert(arr[0] == 1.5L);
  klee_assert(arr[2] == 7.0L);
  klee_assert(arr[1] > 0.999999999999L && arr[1] <= 1.0L);

  // Conversions: integers of both signs and widths, float and double.
  long long big = -9000000000000000000LL;
  unsigned long long ubig = 18000000000000000000ULL;
  long double lb = big, lub = ubig;
  klee_assert((long long)lb == big);
  klee_assert((unsigned long long)lub == ubig); // above 2^63: exact in 64 mantissa bits
  klee_assert((int)-2.75L == -2);
  klee_assert((unsigned char)200.9L == 200);
  float f = (float)third;
  double d = (double)third;
  klee_assert((long double)f != third && (long double)d != third);
  klee_assert((long double)d - third < 1e-16L && third - (long double)d < 1e-16L);
  klee_assert((double)(long double)0.1 == 0.1);

  // Comparisons, NaN and infinity.
  long double nan = __builtin_nanl(""), inf = __builtin_infl();
  klee_assert(nan != nan && !(nan < 1) && !(nan >= 1));
  klee_assert(__builtin_isunordered(nan, 1.0L) && !__builtin_isunordered(inf, 1.0L));
  klee_assert(inf > 1e4000L && -inf < -1e4000L);
  klee_assert(1e4000L * 10 > 1e4000L); // beyond double's range

  klee_assert(fabsl(-2.5L) == 2.5L);
  klee_assert(-(-third) == third);

  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0)
    return 1;
  return 0;
}
