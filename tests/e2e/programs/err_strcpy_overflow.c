// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 16
//
// A buffer overflow inside the runtime's strcpy (6 bytes into a 4-byte buffer): the error is
// placed at the program's call, the runtime frame shows in the .err file's stack. Paths: c == 1
// (the error) or not: 2.
#include "cairn.h"
#include <string.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char dst[4];
  if (c == 1)
    strcpy(dst, "hello");
  else
    strcpy(dst, "abc");
  return dst[0];
}
