// CAIRN-ARGS: --search dfs --merge-encoding quantified --incremental-merging
// EXPECT: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13 merging.snapshot_merges=6 merging.states_discarded=36
//
// Incremental merging (T2 of state merging with quantifiers): memspn with chars = "ab" and
// n <= 6. Each iteration forks twice (s[count] == 'a', else s[count] == 'b') and both matches
// reach count++ with the same live store (p, about to be reset, is a dead stack slot): the
// second side merges with the first as it stood there (its snapshot) into one state whose
// condition is s[c] = 'a' ∨ (s[c] != 'a' ∧ s[c] = 'b'). Depth-first search runs the side that
// matched first, down to the close of the region: the first merges discard what it became
// (6 merges with snapshots, 36 states discarded), and from then on the fork runs the other
// side first, so the matched side waits at count++ unrun. One state per count goes on where
// forking doubles them: 13 states reach the close of the region (190 without; 21 against 3070
// with n <= 10), their words repeat the disjunction, and they merge with quantifiers into
// exactly two states, which fork on r == 2: four paths. The same under every searcher (the
// variants). Without incremental merging the 190 paths' words form no pattern within the
// limits and the region merges with the execution tree into one state: two paths.
#include "cairn.h"

static int memspn(const char *s, unsigned n, const char *chars) {
  const char *p = chars;
  unsigned count = 0;
  while (*p && count < n) {
    if (*p == s[count]) {
      count++;
      p = chars;
    } else {
      p++;
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

// CAIRN-VARIANT: forking --search dfs --merge-encoding quantified
// EXPECT@forking: paths_completed=2 paths_partial=0 tests=2
// CAIRN-VARIANT: bfs --search bfs --merge-encoding quantified --incremental-merging
// EXPECT@bfs: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13 merging.snapshot_merges=0
// CAIRN-VARIANT: random-path --search random-path --merge-encoding quantified --incremental-merging
// EXPECT@random-path: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13
// CAIRN-VARIANT: covnew --search covnew --merge-encoding quantified --incremental-merging
// EXPECT@covnew: paths_completed=4 paths_partial=0 tests=4 merging.quantified_merges=2 merging.states_merged=13
// CAIRN-VARIANT: tree --search dfs --incremental-merging
// EXPECT@tree: paths_completed=2 paths_partial=0 tests=2
