// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=1 paths_partial=0 tests=1
//
// A malloc of more than 2^31 bytes returns NULL, a concrete size as a symbolic one does on its
// huge-size path, and as the replay's native run does. One path, no error.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  char *p = malloc(3221225472u); /* 3 GiB */
  klee_assert(p == 0);
  char *q = malloc(16);
  klee_assert(q != 0);
  free(q);
  return 0;
}
