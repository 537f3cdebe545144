// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: external external-call 15
//
// A call to a function that is neither defined nor modelled ends the path with an external
// error. Paths: x > 0 (the call) or not: 2.
#include "cairn.h"

int mystery(int);

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0)
    return mystery(x);
  return 0;
}
