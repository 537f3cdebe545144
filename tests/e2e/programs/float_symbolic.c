// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: model symbolic-float 13
//
// Floating point runs concretely: converting a symbolic int to double ends that path with a
// model error (symbolic-float). Paths: x > 0 (the error) or not: 2.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0) {
    double y = x;
    return (int)(y * 0.5);
  }
  return 0;
}
