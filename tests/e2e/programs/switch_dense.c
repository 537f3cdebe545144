// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=7 paths_partial=0 tests=7
//
// A dense switch (cases 0..5 and a default) on a symbolic int: one path per case plus the
// default, 7.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int r;
  switch (x) {
  case 0: r = 10; break;
  case 1: r = 11; break;
  case 2: r = 12; break;
  case 3: r = 13; break;
  case 4: r = 14; break;
  case 5: r = 15; break;
  default: r = -1; break;
  }
  if (r != -1)
    klee_assert(r == x + 10);
  else
    klee_assert((x < 0) | (x > 5)); /* | (not ||): one condition, no branch */
  return r;
}
