// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=2
//
// Ways a path ends: exit() in the middle of the program (a completed path with a test),
// klee_silent_exit (completed, without a test), and returning from main. Paths: 3, tests: 2.
#include "cairn.h"
#include <stdlib.h>

static void finish(int code) { exit(code); }

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 1)
    finish(3);
  if (x == 2)
    klee_silent_exit(0);
  return 0;
}
