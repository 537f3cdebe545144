// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=5 paths_partial=0 tests=5
//
// A switch whose cases fall through into each other and into the default: cases 0..3 and the
// default are 5 paths; each path's accumulated value is checked.
#include "cairn.h"

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  int acc = 0;
  switch (x) {
  case 0:
    acc += 1;
    /* fall through */
  case 1:
    acc += 2;
    /* fall through */
  case 2:
    acc += 4;
    break;
  case 3:
    acc += 8;
    /* fall through */
  default:
    acc += 16;
  }
  if (x == 0)
    klee_assert(acc == 7);
  if (x == 1)
    klee_assert(acc == 6);
  if (x == 2)
    klee_assert(acc == 4);
  if (x == 3)
    klee_assert(acc == 24);
  if (x > 3)
    klee_assert(acc == 16);
  return acc;
}
