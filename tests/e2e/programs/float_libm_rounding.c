// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// floor, ceil, round and trunc on a symbolic double are float terms (llvm.floor & co., no
// libc code): floor(x) == 2 and ceil(x) == 3 hold together exactly for x in (2, 3), which the
// assertion checks; round(x) == -4 has solutions, trunc(x) == 7 with x < 0 has none. Paths:
// floor(x) != 2; floor 2 and ceil 3; floor 2 and ceil not 3 (x = 2); round -4 or not among the
// first: 4.
#include "cairn.h"
#include <math.h>

int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (floor(x) == 2.0) {
    if (ceil(x) == 3.0) {
      klee_assert(x > 2.0 && x < 3.0);
      return 1;
    }
    return 2;
  }
  if (trunc(x) == 7.0 && x < 0)
    klee_assert(0);
  return round(x) == -4.0 ? 3 : 0;
}
// CAIRN-VARIANT: full --search dfs --libc full
