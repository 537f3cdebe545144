// A symbolic 4x4 int matrix, its transpose (copied at concrete indices) and PICKS symbolic
// (row, column) pairs: each pick reads both matrices at a symbolic row and column (arrays of
// symbolic contents at symbolic indices) and the path forks on whether the cell equals its
// mirror. Then the picked cells are cleared (symbolic-index writes) and the path forks on the
// traces of the two matrices and on a re-read of the last pick through the stores.
//   -DPICKS=n   the number of symbolic cells (default 3)
#include "cairn.h"

#ifndef PICKS
#define PICKS 3
#endif
#define DIM 4

int main(void) {
  int m[DIM][DIM], t[DIM][DIM];
  unsigned row[PICKS], col[PICKS];
  klee_make_symbolic(m, sizeof m, "m");
  klee_make_symbolic(row, sizeof row, "row");
  klee_make_symbolic(col, sizeof col, "col");
  for (int k = 0; k < PICKS; ++k) {
    klee_assume(row[k] < DIM);
    klee_assume(col[k] < DIM);
  }
  for (int r = 0; r < DIM; ++r)
    for (int c = 0; c < DIM; ++c)
      t[c][r] = m[r][c];
  int mirrored = 0;
  for (int k = 0; k < PICKS; ++k)
    if (m[row[k]][col[k]] == t[row[k]][col[k]])
      mirrored |= 1 << k;
  for (int k = 0; k < PICKS; ++k)
    m[row[k]][col[k]] = 0;
  int trace_m = 0, trace_t = 0;
  for (int d = 0; d < DIM; ++d) {
    trace_m += m[d][d];
    trace_t += t[d][d];
  }
  int result = mirrored;
  if (trace_m == trace_t)
    result += 16;
  else if (trace_m < trace_t)
    result += 32;
  if (m[row[PICKS - 1]][col[PICKS - 1]] != 0)
    result += 64; // impossible: the cell was cleared last
  return result;
}
