// CAIRN-ARGS: --search dfs --check-leaks
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: leak unreachable-memory 11
//
// --check-leaks with exit() from a nested call: the live stack is a root, so a block main's
// variable points to is no leak there; a block whose pointer main dropped is a leak, at the
// exit() call. Paths: c == 1 (exit, reachable), c == 2 (exit, lost), others (freed, return): 3.
#include "cairn.h"
#include <stdlib.h>

static void finish(int status) { exit(status); }

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *block = malloc(8); // not written through: natively, a spill slot of main's would keep it
  if (c == 1)
    finish(1);
  if (c == 2) {
    block = 0;
    finish(2);
  }
  free(block);
  return 0;
}
