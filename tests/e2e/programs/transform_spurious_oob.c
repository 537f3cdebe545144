// CAIRN-ARGS: --transform-branches symbolic
// EXPECT: paths_completed=1 paths_partial=0 tests=1
// EXPECT@plain: paths_completed=9 paths_partial=0 tests=9
//
// A branch that guards a read: melded, the read of buf[i] runs for every i, and for i = 8 and
// 9 it is out of bounds. The original program never reads there (n <= 8), so those errors are
// the extra instruction's: filtered, not reported, and the one melded path goes on. Plain, the
// loop forks on each i < n: nine paths, one per n.
#include "cairn.h"

int main(void) {
  char buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 8);
  int sum = 0;
  for (int i = 0; i < 10; i++)
    if (i < n)
      sum += buf[i];
  return sum;
}
// CAIRN-VARIANT: plain
