// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=5 paths_partial=0 tests=5
//
// phi nodes from the conditional operator with calls in its arms, and from && and || used as
// values (i1 phis). Only the left operand of && / || used as a value is a branch; the right
// operand's comparison flows into the phi as a symbolic i1. Paths: x > 0 or not (2); x > 10
// splits x > 0 (3); x < -10 splits x <= 0 (4); in the assertion, both && any branches on
// both, which is symbolic (y > 10) only when x > 10 (5). The assertion always holds.
#include "cairn.h"

static int twice(int v) { return 2 * v; }
static int negate(int v) { return -v; }

int main(void) {
  int x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");

  int r = x > 0 ? twice(x) : negate(x);
  _Bool both = x > 10 && y > 10;
  _Bool any = x < -10 || y < -10;
  klee_assert(!(both && any) || x > 10);
  return r + both + any;
}
