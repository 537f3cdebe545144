// CAIRN-ARGS: --search dfs --check-leaks --check-memcleanup
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// --check-leaks and --check-memcleanup: every block freed before the program ends, whether it
// came from malloc, calloc, realloc or strdup, is neither a leak nor unfreed memory, at main's
// return and at exit(). Paths: c == 1 (exit), c == 2, other values: 3.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *a = malloc(8);
  int *b = calloc(4, sizeof *b);
  char *d = strdup("cairn");
  a = realloc(a, 64);
  free(d);
  free(b);
  if (c == 2)
    a = realloc(a, 0); // frees it
  else
    free(a);
  if (c == 1)
    exit(0);
  return 0;
}
