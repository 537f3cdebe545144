// CAIRN-ARGS: --search dfs --max-instructions 20000
// EXPECT: paths_completed=0 paths_partial=2 tests=2
//
// --max-instructions ends the run: both states (x > 0 or not) are still in a concrete loop of
// 10^8 iterations when the 20000th instruction runs, whichever the searcher picked first, so
// both end as partial paths, each with its test (and .early file).
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned long acc = 0;
  if (x > 0)
    acc = 1;
  for (unsigned long i = 0; i < 100000000UL; i++)
    acc += i;
  return (int)acc;
}
