// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// select: clang emits a select (not a branch) for a conditional operator whose arms are
// constants, and for __builtin_abs. A select on a symbolic condition does not fork; only the
// two ifs do. Paths: a + b == 0 (x > 10 and y < 0; then |x| == 5 is impossible), or not
// (|x| == 5 both ways): 3.
#include "cairn.h"

int main(void) {
  int x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");

  int a = x > 10 ? 1 : 2;
  int b = y < 0 ? -1 : 1;
  int m = __builtin_abs(x);
  long long wide = y < 0 ? -1LL : 0x100000000LL;
  klee_assert((wide < 0) == (b < 0));

  int n = 0;
  if (a + b == 0)
    n += 1;
  if (m == 5)
    n += 2;
  return n;
}
