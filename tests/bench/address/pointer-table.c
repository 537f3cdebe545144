// Fig. 4.1 of the address-aware caching chapter, scaled up: paths that allocate differently
// first (so every path has its own layout), then a table of heap buffers read at a symbolic
// row and column. The reads' queries differ between paths only in the buffers' addresses.
#include "cairn.h"

#include <stdlib.h>

#define FORKS 4
#define ROWS 5
#define COLS 8

int main(void) {
  unsigned char pre[FORKS];
  klee_make_symbolic(pre, sizeof pre, "pre");
  for (unsigned k = 0; k < FORKS; k++)
    if (pre[k] > 100) {
      char *scratch = malloc(8 * (k + 1));
      scratch[0] = (char)k;
    }
  char **table = calloc(ROWS, sizeof(char *));
  for (unsigned r = 0; r < ROWS; r++) {
    table[r] = calloc(COLS, 1);
    table[r][r % COLS] = (char)(r + 1);
  }
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < ROWS);
  klee_assume(j < COLS);
  if (table[i][j] == 3)
    return 1;
  return 0;
}
