// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 16
//
// An underflow of a global array: i in -1..4 reads table[-1] for i == -1. Paths: i in 0..4 or
// i == -1 (the error): 2.
#include "cairn.h"

static int table[5] = {10, 20, 30, 40, 50};

int main(void) {
  int i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i >= -1);
  klee_assume(i < 5);
  return table[i];
}
