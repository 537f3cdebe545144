// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// A symbolic global array written at a symbolic index and read back at concrete ones: after
// g[i] = 42, g[0] == 42 and g[1] == 42 can each hold or not (i may or may not point there, and
// the old values are free): 4 paths.
#include "cairn.h"

int g[8];

int main(void) {
  klee_make_symbolic(g, sizeof g, "g");
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 8);
  g[i] = 42;
  klee_assert(g[i] == 42);
  int cnt = 0;
  for (int j = 0; j < 2; j++)
    if (g[j] == 42)
      cnt++;
  return cnt;
}
