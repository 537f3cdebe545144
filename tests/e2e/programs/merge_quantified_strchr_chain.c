// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt --merge-encoding quantified
// EXPECT: paths_completed=5 paths_partial=1 tests=6
// EXPECT-ERROR: ptr out-of-bounds 34
//
// The strchr chain of the thesis (Fig. 1.8, T3 of state merging with quantifiers): a string of
// symbolic length n searched twice for 'a'. Each search loop depends on the size, so its paths
// merge where it returns: the paths that found 'a' after k characters, for every k, repeat one
// iteration's conditions k times and become one state with ∀i. 1 <= i <= k → s[i-1] != 0 ∧
// s[i-1] != 'a' and p = s + k; those that reached the terminator another. The second search
// starts from s + k1 + 1 and its states read s[k1 + 1 + i]: the merged conditions grow by one
// pattern per search, whatever the capacity (constraint nodes with 2 searches: 268 at
// capacity 4, 276 at 16 and 32; the execution tree's 206, 738, 1474). Paths: the two found
// states and the not-found ones of each search, and the allocation's side above the capacity
// (partial). The error: s[n] when n + 1 wraps to 0. The tree variant merges each loop exit
// into one state.
#include "cairn.h"
#include <stdlib.h>

static char *find(char *s, int c) {
  int i = 0;
  while (s[i] != '\0') {
    if (s[i] == c)
      return s + i;
    i++;
  }
  return NULL;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  char *p = s;
  for (int j = 0; j < 2; j++) {
    p = find(p, 'a');
    if (p != NULL)
      p++;
    else
      break;
  }
  return p != NULL;
}

// CAIRN-VARIANT: tree --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt
// EXPECT@tree: paths_completed=4 paths_partial=1 tests=5
// EXPECT-ERROR@tree: ptr out-of-bounds 34
// CAIRN-VARIANT: capacity16 --search dfs --size-model symbolic --capacity 16 --size-mode merge-opt --merge-encoding quantified
// EXPECT@capacity16: paths_completed=5 paths_partial=1 tests=6
// EXPECT-ERROR@capacity16: ptr out-of-bounds 34
