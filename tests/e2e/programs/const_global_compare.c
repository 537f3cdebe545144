// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Comparing the addresses of two globals: clang folds the comparison into a constant
// expression (icmp on the globals' addresses), which the engine folds from its layout of the
// globals. No two distinct globals are adjacent (a gap between them, natively a redzone), so
// &a is never just past b, and a global is never at another's address. The one symbolic
// branch gives 2 paths.
#include "cairn.h"

static int a, b;
static int pair[2];

int main(void) {
  klee_assert(!(&a == &b + 1));
  klee_assert(&a != &b);
  klee_assert(&pair[0] + 1 == &pair[1]);
  int same = &a == &a;
  klee_assert(same);
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == (&b + 1 == &a))
    return 1;
  return 0;
}
