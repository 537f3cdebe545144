// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// A vector built from a constant and variables starts as a vector constant whose unknown
// lanes are undef (poison at -O1), then insertelement fills them; the engine reads undef and
// poison lanes as 0. The symbolic lane x decides one branch: 2 paths.
#include "cairn.h"

typedef int v4 __attribute__((vector_size(16)));

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  v4 v = {1, 2, x, 4};
  v4 w = v + v;
  klee_assert(w[0] == 2 && w[1] == 4 && w[3] == 8);
  if (w[2] == 6)
    return 1;
  return 0;
}
