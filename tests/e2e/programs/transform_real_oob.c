// CAIRN-ARGS: --transform-branches symbolic
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 22
// EXPECT@plain: paths_completed=10 paths_partial=0 tests=10
// EXPECT-ERROR@plain: ptr out-of-bounds 22
//
// transform_spurious_oob.c with a real bug: n may be 9, so the original program reads buf[8].
// Melded, the read at i = 8 is out of bounds on every path; where i < n holds (n = 9) it is the
// original program's read, reported at its line with a test that replays natively; where not,
// it is the extra one's, and that path goes on (its read at i = 9 is extra everywhere). Plain:
// ten paths (n = 0 .. 9), the one with n = 9 ending in the error.
#include "cairn.h"

int main(void) {
  char buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 9);
  int sum = 0;
  for (int i = 0; i < 10; i++)
    if (i < n)
      sum += buf[i];
  return sum;
}
// CAIRN-VARIANT: plain
