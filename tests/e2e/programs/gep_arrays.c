// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// getelementptr over arrays: a global 2-D array indexed by two symbolic in-bounds indices (one
// object, no fork), a row pointer, pointer arithmetic and pointer difference, and a symbolic
// read from a local array. Paths: local[k] == 1 (k = 1 or 3), or not and local[k] > 4 (k = 0,
// 4, 5) or not (k = 2): 3.
#include "cairn.h"

static int grid[4][5];

int main(void) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      grid[i][j] = i * 10 + j;

  unsigned r, c, k;
  klee_make_symbolic(&r, sizeof r, "r");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(r < 4);
  klee_assume(c < 5);
  klee_assume(k < 6);

  int v = grid[r][c];
  klee_assert(v == (int)(r * 10 + c));
  int *row = grid[r];
  klee_assert(row[c] == v);
  klee_assert(&grid[r][c] - &grid[0][0] == (long)(r * 5 + c));

  int local[6] = {5, 1, 4, 1, 5, 9};
  int *p = local + k;
  klee_assert(p - local == (long)k);
  if (*p == 1)
    return 1;
  if (local[k] > 4)
    return 2;
  return 0;
}
