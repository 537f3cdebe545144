// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr null 14
//
// A null pointer dereference on one path. Paths: x == 42 (p is null: the error) or not: 2.
#include "cairn.h"

int main(void) {
  int v = 3, x;
  int *p = &v;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 42)
    p = 0;
  return *p;
}
