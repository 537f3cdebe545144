// CAIRN-ARGS: --search dfs --max-memory 50
// EXPECT: paths_completed=1 paths_partial=1 tests=2
//
// --max-memory holds for a single path too: with `hoard` set, the path allocates 1 MiB blocks
// and keeps them all; the allocation that would take its objects past 50 MiB ends it as a
// partial path with its test (the run's other states go on: there is only this one when it
// happens, so halving the states would never stop it). With `hoard` clear the path returns
// at once: 1 completed, 1 partial, 2 tests.
#include "cairn.h"

#include <stdlib.h>

int main(void) {
  int hoard;
  klee_make_symbolic(&hoard, sizeof hoard, "hoard");
  if (!hoard)
    return 0;
  for (int i = 0; i < 100; ++i) {
    char *block = malloc(1 << 20);
    if (!block)
      return 1;
    block[0] = (char)i;
  }
  return 0;
}
