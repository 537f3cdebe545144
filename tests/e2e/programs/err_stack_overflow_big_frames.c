// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: exec stack-overflow 20
//
// A recursion only 200 calls deep whose frames each hold a 64 KiB array needs 12.8 MiB of
// stack: more than the native 8 MiB, so the program overflows its stack natively long before
// the engine's frame limit (8192 frames). The engine counts each frame's objects against the
// stack size (--stack-size, 8 MiB by default) and reports exec/stack-overflow at the call that
// would need a frame past it (about the 128th). Paths: `go` set (the error) or clear: 2.
#include "cairn.h"

static int dig(int n) {
  char frame[65536];
  frame[0] = (char)n;
  frame[sizeof frame - 1] = (char)(n + 1);
  if (n == 200)
    return frame[0];
  // The call below needs a frame of its own: at about 8 MiB of frames, it has no room for one.
  int below = 0;
  below = dig(n + 1);
  return below + frame[sizeof frame - 1];
}

int main(void) {
  int go;
  klee_make_symbolic(&go, sizeof go, "go");
  if (go)
    return dig(0) != 0;
  return 0;
}
