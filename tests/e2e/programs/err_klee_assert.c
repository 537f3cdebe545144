// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: assert assertion-failure 11
//
// klee_assert on a condition that can fail. Paths: x == 77 (the error) or not: 2.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assert(x != 77);
  return 0;
}
