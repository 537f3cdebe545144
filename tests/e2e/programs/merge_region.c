// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: assert assertion-failure 31
//
// klee_open_merge / klee_close_merge: the three paths through classify() become one state at
// the close, with `y` an if-then-else over the path taken. The paths reach the join from
// different blocks (at -O1 through a phi node). After the merge, main forks on y only: the
// assertion fails when 2 * x overflows, and x > 10 || x < -20 holds whenever y > 20.
#include "cairn.h"

__attribute__((noinline)) static int twice(int x) { return 2 * x; }
__attribute__((noinline)) static int negated(int x) { return -x; }

__attribute__((noinline)) static int classify(int x) {
  int y;
  klee_open_merge();
  if (x > 10)
    y = twice(x);
  else if (x < -10)
    y = negated(x);
  else
    y = 0;
  klee_close_merge();
  return y;
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int y = classify(x);
  klee_assert(y >= 0);
  if (y > 20)
    klee_assert(x > 10 || x < -20);
  return 0;
}

// CAIRN-VARIANT: bfs --search bfs
// CAIRN-VARIANT: quantified --search dfs --merge-encoding quantified
// CAIRN-VARIANT: optimized --search dfs --cflag -O1
// EXPECT@optimized: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR@optimized: assert assertion-failure 31
