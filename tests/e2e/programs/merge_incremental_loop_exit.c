// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt --incremental-merging
// EXPECT: paths_completed=5 paths_partial=1 tests=6
// EXPECT-ERROR: ptr out-of-bounds 29
//
// Incremental merging inside size-dependent loops: a header line's fields ("name: value"
// separated by ';') found by two strchr-like searches each, over a string of symbolic length.
// A fork's side that leaves the loop waits at the loop's exit at once; a later side at the
// same place must not merge with it there (it is the loop merge's to take): the run once
// crashed on such a state, merged early and then merged again. The error: s[n] when n + 1
// wraps to 0. The quantified variant merges the exits with quantifiers.
#include "cairn.h"
#include <stdlib.h>

static const char *find(const char *s, char c) {
  size_t i = 0;
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
  const char *p = s;
  int fields = 0;
  for (int j = 0; j < 2 && p; j++) {
    const char *colon = find(p, ':');
    if (!colon)
      break;
    fields++;
    p = find(colon + 1, ';');
    if (p)
      p++;
  }
  return fields;
}

// CAIRN-VARIANT: quantified --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt --incremental-merging --merge-encoding quantified
// EXPECT@quantified: paths_completed=6 paths_partial=1 tests=7
// EXPECT-ERROR@quantified: ptr out-of-bounds 29
