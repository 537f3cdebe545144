// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=8 paths_partial=0 tests=7
// EXPECT-ERROR: ptr out-of-bounds 23
// EXPECT-ERROR: ptr null 25
// EXPECT-ERROR: ptr use-after-free 29
// EXPECT-ERROR: ptr out-of-bounds 31
//
// klee_check_memory_access(p, n): the error an access of n bytes at p would have, when they
// are not inside one object; nothing otherwise. Paths: i == 0, 1, 2 (an error each); i < 0
// and i >= 20 (nothing checked); 3 <= i < 20, where buf + i is resolved like an access: i <= 8
// fits, 9 <= i <= 15 runs past buf's end and 16 <= i <= 19 lies past it (one error, one test).
#include <stdlib.h>

#include "cairn.h"

int main(void) {
  char buf[16];
  int i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_check_memory_access(buf, sizeof buf);
  klee_check_memory_access(buf + 4, 12);
  if (i == 0) {
    klee_check_memory_access(buf + 8, 9);
  } else if (i == 1) {
    klee_check_memory_access((char *)0, 4);
  } else if (i == 2) {
    char *p = malloc(8);
    free(p);
    klee_check_memory_access(p, 1);
  } else if (i > 2 && i < 20) {
    klee_check_memory_access(buf + i, 8);
  }
  return 0;
}
