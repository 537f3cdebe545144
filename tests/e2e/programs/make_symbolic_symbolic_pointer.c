// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: user make-symbolic 19
//
// klee_make_symbolic through a pointer chosen by a symbolic index is resolved to each object the
// pointer may point into, as an access is, not fixed to one of them: 8 bytes fit b, not a.
// Two paths: i == 0 is the error, i == 1 makes b's bytes the input.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  char *a = malloc(4), *b = malloc(8);
  char *table[2] = {a, b};
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 2);
  char *p = table[i];
  p[0] = 0;
  klee_make_symbolic(p, 8, "buf");
  free(a);
  free(b);
  return 0;
}
