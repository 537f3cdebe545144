// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: assert assertion-failure 16
//
// (int)f for a positive f of 2^31 or more is out of range: x86-64 gives INT_MIN (the "integer
// indefinite"), as the engine does, so the assertion fails for such an f, and the test makes
// the native build fail the same way. Paths: f <= 0 or NaN, in range, out of range (the
// error): 3.
#include "cairn.h"

int main(void) {
  float f;
  klee_make_symbolic(&f, sizeof f, "f");
  if (f > 0) {
    int i = (int)f;
    klee_assert(i >= 0);
    return 1;
  }
  return 0;
}
