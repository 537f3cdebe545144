// CAIRN-ARGS: --search dfs --max-depth 2
// EXPECT: paths_completed=1 paths_partial=2 tests=3
//
// --max-depth 2: a path with 2 symbolic branches ends as a partial path. b[0] == 0 returns
// after one branch (completed); the other side branches on b[1] (its second symbolic branch)
// and both of those end as partial paths before b[2] is decided. Every path that reaches depth
// 2 has further branches, so the count does not depend on whether the limit strikes at the
// second fork or just before the third: 1 completed, 2 partial, 3 tests.
#include "cairn.h"

int main(void) {
  unsigned char b[4];
  klee_make_symbolic(b, sizeof b, "b");
  if (b[0] == 0)
    return 0;
  int n = 0;
  if (b[1] > 10)
    n++;
  if (b[2] > 10)
    n++;
  if (b[3] > 10)
    n++;
  return n;
}
