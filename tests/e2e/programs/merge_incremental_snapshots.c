// CAIRN-ARGS: --search bfs --merge-encoding quantified --incremental-merging
// EXPECT: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13 merging.snapshot_merges=1 merging.states_discarded=2
//
// Incremental merging with snapshots (state merging with quantifiers, thesis §6.3): memspn as
// in merge_incremental_memspn.c with the comparison written the other way round. Depth-first
// search now runs the side that did not match first and merges without a snapshot; under
// breadth-first search the side that matched runs on from count++ before its partner gets
// there, the partner merges with it as it stood at count++ and the two states it became are
// discarded (the merged state explores their paths again); the fork then runs the other side
// first. Under every searcher the region ends in the two quantified states of memspn (four
// paths).
#include "cairn.h"

static int memspn(const char *s, unsigned n, const char *chars) {
  const char *p = chars;
  unsigned count = 0;
  while (*p && count < n) {
    if (*p != s[count]) {
      p++;
    } else {
      count++;
      p = chars;
    }
  }
  return count;
}

int main(void) {
  char s[6];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 6);
  klee_open_merge();
  int r = memspn(s, n, "ab");
  klee_close_merge();
  if (r == 2)
    return 1;
  return 0;
}

// CAIRN-VARIANT: dfs --search dfs --merge-encoding quantified --incremental-merging
// EXPECT@dfs: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13 merging.snapshot_merges=0
// CAIRN-VARIANT: random-state --search random-state --merge-encoding quantified --incremental-merging
// EXPECT@random-state: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13
// CAIRN-VARIANT: random-path --search random-path --merge-encoding quantified --incremental-merging
// EXPECT@random-path: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13
// CAIRN-VARIANT: covnew --search covnew --merge-encoding quantified --incremental-merging
// EXPECT@covnew: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13
// CAIRN-VARIANT: forking --search bfs --merge-encoding quantified
// EXPECT@forking: paths_completed=2 paths_partial=0 tests=2 merging.quantified_merges=0 merging.states_merged=190
