// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Vector comparisons: icmp on <4 x i32> gives <4 x i1>, sign-extended to <4 x i32> lanes of
// 0 or -1. A concrete mixed mask first, then a symbolic lane: branching on it gives 2 paths.
#include "cairn.h"

typedef int v4si __attribute__((vector_size(16)));

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");

  volatile int zero = 0;
  v4si c = {zero, 1, 2, 3};
  v4si z = {0, 0, 0, 0};
  v4si mc = c > z; /* {0, -1, -1, -1} */
  klee_assert(mc[0] == 0);
  klee_assert(mc[1] == -1);
  v4si eq = c == z; /* {-1, 0, 0, 0} */
  klee_assert(eq[0] == -1);
  klee_assert(eq[3] == 0);

  v4si a = {x, 1, 2, 3};
  v4si m = a > z;
  klee_assert(m[1] == -1);
  klee_assert((m[0] == 0) | (m[0] == -1));
  if (m[0])
    return 1;
  return 0;
}
