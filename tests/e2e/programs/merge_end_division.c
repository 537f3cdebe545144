// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: div division-by-zero 18
//
// After the program's last decision its two paths join with only the return ahead, and merge
// there (the divisor is no hot variable: no branch or memory access depends on it). The
// division on the way to the return fails on one path only: the merged state, whose divisor is
// an if-then-else, must still find it. A merge of states with nothing but their end ahead keeps
// one of them as it stands only where nothing on the way can fail on one path and not on the
// other; here it must join the values. The -dsm test and the ssm variant check the error.
#include "cairn.h"

int main(void) {
  int x = klee_int("x");
  int d = 5;
  if (x > 10)
    d = 0;
  return 100 / d;
}
// CAIRN-VARIANT: ssm --search dfs --merge-strategy ssm
