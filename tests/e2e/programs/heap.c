// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// The heap: calloc zero-fills, realloc keeps the contents when growing and shrinking, malloc'd
// blocks hold symbolic values, free(NULL) is allowed. One branch: 2 paths, no error.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  int *p = calloc(4, sizeof(int));
  klee_assert(p != 0);
  klee_assert(p[3] == 0);
  p[1] = n;
  p = realloc(p, 8 * sizeof(int));
  klee_assert(p[1] == n);
  p[7] = 1;
  p = realloc(p, 2 * sizeof(int));
  klee_assert(p[1] == n);
  char *s = malloc(3);
  s[0] = 'o';
  s[1] = 'k';
  s[2] = 0;
  klee_assert(s[1] == 'k');
  free(s);
  free(0);
  int r = p[1] > 0;
  free(p);
  if (r)
    return 1;
  return 0;
}
