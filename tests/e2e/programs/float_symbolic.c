// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
//
// A symbolic int converted to double and back: solved, no error. Paths: x > 0 or not: 2. Under
// --float concrete (the variant at the end) the conversion ends that path with a model error.
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
// CAIRN-VARIANT: concrete --search dfs --float concrete
// EXPECT@concrete: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR@concrete: model symbolic-float 13
