// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// Symbolic pointers: a pointer computed with a symbolic offset into one of two arrays (chosen
// by a branch), written through; and a select between two globals' addresses, written
// through. Paths: i < 4, 4 <= i < 8, i >= 8 (no write): 3; the write through q makes g1 == 5
// exactly when c > 0 (whether the engine forks on the pointer's targets or on the branch
// below): 2. 3 * 2 = 6.
#include "cairn.h"

static int g1, g2;
static int a[4], b[4];

int main(void) {
  unsigned i;
  int c;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&c, sizeof c, "c");

  int *p = i < 4 ? &a[i] : &b[i - 4];
  if (i < 8) {
    *p = 7;
    klee_assert(a[0] + a[1] + a[2] + a[3] + b[0] + b[1] + b[2] + b[3] == 7);
  }

  int *q = c > 0 ? &g1 : &g2;
  *q = 5;
  klee_assert(g1 + g2 == 5);
  if (g1 == 5)
    return 1;
  return 0;
}
