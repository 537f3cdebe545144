// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=5 paths_partial=0 tests=5
// EXPECT-ERROR: exec unreachable 14
//
// Reaching an LLVM unreachable instruction (__builtin_unreachable) is an error; one that cannot
// be reached is not (the switch's default is infeasible: x & 3 is always a case). Paths:
// x == 99 (the error), then the four cases: 5.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 99)
    __builtin_unreachable();
  switch (x & 3) {
  case 0: return 10;
  case 1: return 11;
  case 2: return 12;
  case 3: return 13;
  }
  __builtin_unreachable();
}
