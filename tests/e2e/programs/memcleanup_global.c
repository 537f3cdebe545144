// CAIRN-ARGS: --search dfs --check-memcleanup
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: leak unfreed-memory 22
// EXPECT-ERROR: leak unfreed-memory 23
//
// --check-memcleanup: a block a global still points to when main returns is reachable, so no
// leak, but it was never freed: unfreed memory at the return, or at exit(). Paths: c == 5
// (freed), c == 6 (exit), others: 3.
#include "cairn.h"
#include <stdlib.h>

static char *kept;

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  kept = malloc(16);
  kept[0] = 'k';
  if (c == 5)
    free(kept);
  if (c == 6)
    exit(1);
  return 0;
}
