// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr out-of-bounds 24
// EXPECT-ERROR: ptr out-of-bounds 26
//
// memset and memcpy through a pointer chosen by a symbolic index are resolved to every object
// the pointer may point into, as any access is, not fixed to one of them: the 6 bytes fit in b
// (8 bytes) but not in a (4 bytes). Each call forks on the two objects, and the state that
// overflowed a ends there: i == 0 at the memset; then j == 0 at the memcpy, j == 1 normally.
// Three paths, two errors.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *a = malloc(4), *b = malloc(8);
  char *table[2] = {a, b};
  char src[6] = "hello";
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 2);
  klee_assume(j < 2);
  memset(table[i], 0, 6);
  char *p = table[j];
  memcpy(p, src, 6);
  free(a);
  free(b);
  return 0;
}
