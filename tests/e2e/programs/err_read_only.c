// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr read-only 17
// EXPECT-ERROR: ptr read-only 19
//
// Writes to read-only memory: a string literal and a const global (both LLVM constants).
// Paths: c == 1, c == 2 (the two errors), neither: 3.
#include "cairn.h"

static const int limits[2] = {1, 2};

int main(void) {
  char *s = (char *)"hello";
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  if (c == 1)
    s[0] = 'H';
  if (c == 2)
    *(int *)&limits[1] = 5;
  return s[1] + limits[1];
}
