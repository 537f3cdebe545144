// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=10 paths_partial=0 tests=9
// EXPECT-ERROR: ptr out-of-bounds 29
//
// A table of three 4-byte heap buffers read at a symbolic row and a column that may run past
// its buffer: where such a pointer lands depends on the layout, which the address-aware cache
// must not answer by renaming (the relocatable run validates every hit). Paths: on each side
// of the fork on s, the pointer resolves in bounds to one of the three buffers, where the
// branch on the value read has both outcomes in table[1] (which holds the 6) and one in the
// others, or runs out of bounds (the error, one test for both sides): 2 x (4 + 1).
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int s = klee_int("s");
  if (s > 0) {
    char *scratch = malloc(40);
    scratch[0] = 1;
  }
  char **table = malloc(3 * sizeof(char *));
  for (unsigned k = 0; k < 3; k++) {
    table[k] = calloc(4, 1);
    table[k][k] = (char)(k + 5);
  }
  unsigned row = (unsigned)klee_int("row"), col = (unsigned)klee_int("col");
  klee_assume(row < 3);
  klee_assume(col < 6);
  char *p = table[row];
  char v = p[col];
  if (v == 6)
    return 1;
  return 0;
}
// CAIRN-VARIANT: address-cache --search dfs --memory-model relocatable --address-aware-cache
