// CAIRN-ARGS: --search dfs
// NO-REPLAY: it asserts klee_is_symbolic(x), which the native replay library answers with 0
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// klee_is_symbolic, klee_get_value_i32/klee_get_valuell (a concrete value the expression can
// take on the path, without constraining it) and klee_prefer_cex (a hint). One branch: 2
// paths.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int c = 5;
  klee_assert(klee_is_symbolic(x));
  klee_assert(!klee_is_symbolic(c));
  klee_prefer_cex(&x, x == 1000);
  if (x > 10) {
    int v = klee_get_value_i32(x);
    klee_assert(!klee_is_symbolic(v));
    klee_assert(v > 10);
    long long vl = klee_get_valuell((long long)x * 2);
    klee_assert(vl > 20);
    return 1;
  }
  return 0;
}
