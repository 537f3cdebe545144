// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: user make-symbolic 18
// EXPECT-ERROR: user make-symbolic 20
//
// klee_make_symbolic over read-only memory is a user error, as in KLEE ("cannot make readonly
// object symbolic"): a const global and a string literal (both LLVM constants). The replay
// library refuses them too (their mapping is not writable). Paths: c == 1 and c == 2 (the two
// errors), neither: 3.
#include "cairn.h"

static const int table[4] = {1, 2, 3, 4};

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  if (c == 1)
    klee_make_symbolic((void *)table, sizeof table, "table");
  if (c == 2)
    klee_make_symbolic((char *)"abc", 4, "literal");
  return table[2] != 3;
}
