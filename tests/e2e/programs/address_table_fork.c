// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// Fig. 4.1 of the address-aware caching chapter: the z > 0 side allocates once more, so the two
// sides build the table of heap buffers at different addresses, then branch on array[i][j].
// Per side: array[i][j] resolves to array[0] or array[1] (2 states); in array[0] the 7 is at
// j == 1 (both outcomes), in array[1] there is none: 3 paths (`extra` is a value, no branch).
// The relocatable run's address-aware cache answers the second side's queries (checked by
// validation).
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int z = klee_int("z");
  int extra = 0;
  if (z > 0) {
    char *scratch = malloc(24);
    scratch[0] = (char)z;
    extra = scratch[0] != 0;
  }
  char **array = calloc(2, sizeof(char *));
  for (unsigned k = 0; k < 2; k++)
    array[k] = calloc(2, 1);
  array[0][1] = 7;
  unsigned i = (unsigned)klee_int("i"), j = (unsigned)klee_int("j");
  klee_assume(i < 2);
  klee_assume(j < 2);
  if (array[i][j] == 7)
    return 1 + extra;
  return extra;
}
// CAIRN-VARIANT: address-cache --search dfs --memory-model relocatable --address-aware-cache
