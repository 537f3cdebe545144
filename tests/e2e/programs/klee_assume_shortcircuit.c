// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: user assume 13
//
// KLEE's well-known klee_assume pitfall: klee_assume(x > 0 && x < 10) evaluates the && first,
// which branches on x > 0; on the x <= 0 path the argument is 0, a provably false assumption
// (a user error). The other path assumes x < 10 without forking. 2 paths, 1 error.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assume(x > 0 && x < 10);
  klee_assert(x < 10);
  return x;
}
