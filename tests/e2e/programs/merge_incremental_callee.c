// CAIRN-ARGS: --search dfs --incremental-merging
// EXPECT: paths_completed=1 paths_partial=0 tests=1
//
// Incremental merging with a frame that has no stack slots: step() takes no arguments and has
// no locals, so it allocates nothing, and the two matches of its condition (s[count] is 'a',
// or else 'b') reach count++ alike and merge there, step() on top of the stack. The run once
// crashed looking up the dead slots of such a frame. 7 states reach the region's close (127
// without: the variant), which merges them into one; main returns count == 3 without a fork.
#include "cairn.h"

static char s[6];
static unsigned count;

static void step(void) {
  if (s[count] == 'a' || s[count] == 'b')
    count++;
}

int main(void) {
  klee_make_symbolic(s, sizeof s, "s");
  klee_open_merge();
  for (int i = 0; i < 6; i++)
    step();
  klee_close_merge();
  return count == 3;
}

// CAIRN-VARIANT: forking --search dfs
// EXPECT@forking: paths_completed=1 paths_partial=0 tests=1
