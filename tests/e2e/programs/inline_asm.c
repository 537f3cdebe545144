// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: model inline-assembly 15
//
// Inline assembly ends only the path that runs it (with the engine's model error, as KLEE ends
// such a path), not the whole program: the path with x <= 5 never reaches it and ends normally.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x <= 5)
    return 0;
  int y = x;
  __asm__ volatile("" : "+r"(y));
  return y;
}
