// CAIRN-ARGS: --search dfs --check-leaks
// EXPECT: paths_completed=2 paths_partial=0 tests=1
// EXPECT-ERROR: leak unreachable-memory 27
// EXPECT@segments: paths_completed=1 paths_partial=0 tests=1
// EXPECT-ERROR@segments: leak unreachable-memory 27
//
// --check-leaks on blocks written through a symbolic pointer: t[1] is lost when t is freed,
// t[0] stays reachable from a global. The standard model forks on where t[i] points (2 paths,
// the one error's test); with --merge-objects both blocks move into one segment (1 path), and
// each member is a block of its own. A word read back from the segment after the write at a
// symbolic offset mentions both members' bases: that does not make t[1] reachable.
#include "cairn.h"
#include <stdlib.h>

static char *kept;

int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 2);
  char **t = malloc(2 * sizeof *t);
  t[0] = malloc(8);
  t[1] = malloc(8);
  t[i][0] = 1;
  kept = t[0];
  free(t);
  return 0;
}
// CAIRN-VARIANT: segments --search dfs --check-leaks --memory-model relocatable --merge-objects
