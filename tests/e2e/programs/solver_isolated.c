// CAIRN-ARGS: --search dfs --isolate-solver
// EXPECT: paths_completed=16 paths_partial=0 tests=11
// EXPECT-ERROR: div division-by-zero 16
// EXPECT-ERROR: assert assertion-failure 18
//
// searchers.c with the core solver in a child process (--isolate-solver): same outcome.
#include "cairn.h"

int main(void) {
  unsigned char b[4];
  klee_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 4; i++)
    if (b[i] > 100)
      n++;
  int q = 100 / (n - 2);
  if (n == 4)
    klee_assert(0);
  return q;
}
