// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: assert assertion-failure 14
// EXPECT-ERROR: assert assertion-failure 15
//
// assert() from the system's <assert.h> (glibc's __assert_fail, provided by the runtime).
// Paths: x >= 1000 (first error), x < 1000 and x == -1 (second error), neither: 3.
#include "cairn.h"
#include <assert.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  assert(x < 1000);
  assert(x != -1);
  return 0;
}
