// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: model unsupported-instruction 13
//
// Real code holds what the engine cannot run, on paths it may never take (coreutils' wc has an
// AVX2 loop chosen at run time): a 256-bit vector store ends only the path that reaches it, with
// an error naming the instruction; the program is not refused and the other path completes.
#include "cairn.h"

typedef long long v4 __attribute__((vector_size(32)));

__attribute__((noinline)) static void wide(v4 *p) {
  v4 zero = {0, 0, 0, 0}; // a store of <4 x i64>: the path ends here
  *p = zero;
}

int main(void) {
  int x = klee_int("x");
  if (x == 7) {
    v4 v;
    wide(&v);
  }
  return 0;
}
