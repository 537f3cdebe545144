// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr out-of-bounds 14
//
// An out-of-bounds read from a stack array through a symbolic index: i <= 8 lets i == 8
// through, one past the end. Paths: i > 8; i < 8 (in bounds); i == 8 (the error): 3.
#include "cairn.h"

int main(void) {
  char buf[8] = "abcdefg";
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  if (i <= 8)
    return buf[i];
  return 0;
}
