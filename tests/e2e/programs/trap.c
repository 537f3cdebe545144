// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: abort abort 14
//
//
// __builtin_trap (llvm.trap) ends the program abnormally, like abort(): an abort error on the
// path that reaches it. Paths: x == 13 (the trap) or not: 2.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 13)
    __builtin_trap();
  return 0;
}
