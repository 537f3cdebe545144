// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=5 paths_partial=0 tests=3
// EXPECT-ERROR: assert assertion-failure 17
//
// An SV-COMP style task: __VERIFIER_nondet_int/uchar inputs, __VERIFIER_assume (a false
// condition ends the path silently: a completed path without a test and without an error), and
// reach_error. Paths: x <= 0 and x >= 10 end silently (2); then x != 5 (normal), x == 5 and
// c == 'k' (the error), x == 5 and c != 'k' (normal): 5 paths, 3 tests.
#include "cairn.h"

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  __VERIFIER_assume(x < 10);
  unsigned char c = __VERIFIER_nondet_uchar();
  if (x == 5 && c == 'k')
    reach_error();
  return 0;
}
