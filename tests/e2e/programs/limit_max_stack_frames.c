// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=1 paths_partial=1 tests=2
//
// A recursion 20,000 calls deep with small frames is legal C: natively it needs about 2 MB of
// the 8 MiB stack and completes. The engine's frame limit (--max-stack-frames, 8192 by
// default, as KLEE's) is a limit of the exploration, not of the program: with `deep` set, the
// path reaches 8192 frames and ends as a partial path with its test, not as a stack overflow;
// with `deep` clear it returns at once. With --max-stack-frames 30000 (variant `frames`) the
// deep path completes too: 2 completed paths, no partial one.
#include "cairn.h"

static int descend(int n) {
  if (n == 0)
    return 0;
  return descend(n - 1) + 1;
}

int main(void) {
  int deep;
  klee_make_symbolic(&deep, sizeof deep, "deep");
  if (deep)
    return descend(20000) == 20000 ? 0 : 1;
  return 0;
}
// CAIRN-VARIANT: frames --search dfs --max-stack-frames 30000
// EXPECT@frames: paths_completed=2 paths_partial=0 tests=2
