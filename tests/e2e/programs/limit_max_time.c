// CAIRN-ARGS: --search dfs --max-time 1
// EXPECT: paths_completed=0 paths_partial=2 tests=2
//
// --max-time ends the run after a second: both states (x > 0 or not) are still in a concrete
// loop of 4 * 10^9 iterations (billions of instructions, far more than a second's worth), so
// both end as partial paths, each with its test.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned long acc = 0;
  if (x > 0)
    acc = 1;
  for (unsigned long i = 0; i < 4000000000UL; i++)
    acc += i;
  return (int)acc;
}
