// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4
// EXPECT: paths_completed=15 paths_partial=1 tests=14
// EXPECT-ERROR: ptr out-of-bounds 20
// EXPECT-ERROR: ptr out-of-bounds 29
//
// Figure 1.8 of the symbolic-size chapter: strchr applied twice to a string of symbolic length
// n (capacity 4). Each strchr loop depends on the size; merging it makes the state the next
// strchr starts from an if-then-else over where the last one stopped. Every mode finds the same
// two bugs: s[n] when n + 1 wraps to 0 (n = SIZE_MAX, a zero-byte buffer), and reading p[1]
// when the second 'a' is the string's last character.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  char *p = s;
  for (int j = 0; j < 2; j++) {
    p = strchr(p, 'a');
    if (p)
      p++;
    else
      break;
  }
  if (p && p[1] == 'b')
    return 1;
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 4 --size-mode eager
// EXPECT@eager: paths_completed=25 paths_partial=1 tests=24
// EXPECT-ERROR@eager: ptr out-of-bounds 20
// EXPECT-ERROR@eager: ptr out-of-bounds 29
// CAIRN-VARIANT: merge --search dfs --size-model symbolic --capacity 4 --size-mode merge
// EXPECT@merge: paths_completed=8 paths_partial=1 tests=7
// EXPECT-ERROR@merge: ptr out-of-bounds 20
// EXPECT-ERROR@merge: ptr out-of-bounds 29
// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt
// EXPECT@merge-opt: paths_completed=8 paths_partial=1 tests=7
// EXPECT-ERROR@merge-opt: ptr out-of-bounds 20
// EXPECT-ERROR@merge-opt: ptr out-of-bounds 29
// Every mode also has one partial path: n + 1 > 4, above the capacity, is not explored; the
// allocation forks on n + 1 <= 4 and the other side ends there.
// CAIRN-VARIANT: quantified --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt --merge-encoding quantified
// EXPECT@quantified: paths_completed=8 paths_partial=1 tests=7
// EXPECT-ERROR@quantified: ptr out-of-bounds 20
// EXPECT-ERROR@quantified: ptr out-of-bounds 29
