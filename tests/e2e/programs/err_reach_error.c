// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: assert assertion-failure 12
//
// SV-COMP's reach_error (from the runtime) is an assertion failure placed at its call in the
// program. Paths: x == 5 (the error) or not: 2.
#include "cairn.h"

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 5)
    reach_error();
  return 0;
}
