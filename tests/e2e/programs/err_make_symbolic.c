// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: user make-symbolic 14
//
// klee_make_symbolic over more bytes than its object has (8 bytes of a 4-byte buffer) is a
// user error. Paths: c == 1 (the error) or not: 2.
#include "cairn.h"

int main(void) {
  char buf[4] = {0};
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  if (c == 1)
    klee_make_symbolic(buf, 8, "buf");
  return buf[0];
}
