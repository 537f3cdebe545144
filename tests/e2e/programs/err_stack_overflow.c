// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: exec stack-overflow 16
//
// Unbounded recursion exhausts the native stack: an exec/stack-overflow error at the recursive
// call. Each frame holds 4 KiB, so the 8 MiB stack is full after about 2,000 frames, long
// before the engine's frame limit (8192 frames; a recursion of small frames reaches that first
// and ends as a partial path, see limit_max_stack_frames.c). Paths: c == 1 (the error) or
// not: 2.
#include "cairn.h"

static int forever(int n) {
  volatile char frame[4096];
  frame[0] = (char)n;
  frame[sizeof frame - 1] = (char)n;
  return forever(n + 1) + frame[0] + frame[sizeof frame - 1];
}

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  if (c == 1)
    return forever(0);
  return 0;
}
