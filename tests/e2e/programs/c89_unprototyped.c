// CAIRN-ARGS: --search dfs --cflag -std=c89 --cflag -Wno-implicit-function-declaration
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: assert assertion-failure 16
//
// C89 code calls KLEE's API with no prototype in scope: the calls go through another function
// type, and are still the engine's klee_make_symbolic and klee_assume. Two paths: x == 3 fails
// the assertion, the other ends normally.
#include <assert.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assume(x >= 0);
  klee_assume(x < 10);
  if (x == 3)
    assert(0);
  return 0;
}
