// CAIRN-ARGS: --search dfs --max-forks 2
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// --max-forks 2: after two forks every further branch follows one side. Each fork adds one
// state, so there are 3 paths, and each runs to its end (they are completed paths, not partial
// ones: only run-ending limits make partial paths).
#include "cairn.h"

int main(void) {
  unsigned char b[4];
  klee_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 4; i++)
    if (b[i] > 10)
      n++;
  return n;
}
