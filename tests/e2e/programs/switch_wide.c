// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=12 paths_partial=0 tests=12
//
// Switches on wide integers: a 64-bit switch with cases beyond 32 bits (3 cases and the
// default: 4 paths) and a 128-bit switch with a case above 2^64 (2 cases and the default: 3).
// Independent inputs: 4 * 3 = 12 paths.
#include "cairn.h"

int main(void) {
  long long x;
  unsigned long long hi, lo;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&hi, sizeof hi, "hi");
  klee_make_symbolic(&lo, sizeof lo, "lo");
  unsigned __int128 y = ((unsigned __int128)hi << 64) | lo;

  int r = 0;
  switch (x) {
  case -10000000000LL: r = 1; break;
  case 0x123456789ABCLL: r = 2; break;
  case 1: r = 3; break;
  default: break;
  }
  switch (y) {
  case 0: r += 10; break;
  case (unsigned __int128)1 << 100: r += 20; break;
  default: break;
  }
  if (r >= 20)
    klee_assert(hi == (1ULL << 36));
  return r;
}
