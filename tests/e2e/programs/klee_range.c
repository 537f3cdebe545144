// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=10 paths_partial=0 tests=10
//
// klee_range and klee_int from the runtime: klee_range(0, 5) is one input constrained to 0..4
// without forking, klee_range(3, 4) is the constant 3 (no input), klee_range(-3, 3) stays in
// its range. A switch on v has 5 feasible cases (its default is impossible), each split by
// k > v: 10 paths.
#include "cairn.h"

int main(void) {
  int v = klee_range(0, 5, "v");
  int w = klee_range(3, 4, "w");
  int s = klee_range(-3, 3, "s");
  int k = klee_int("k");
  klee_assert(w == 3);
  klee_assert(!klee_is_symbolic(w));
  klee_assert(v >= 0);
  klee_assert(v < 5);
  klee_assert(s >= -3);
  klee_assert(s < 3);

  int r;
  switch (v) {
  case 0: r = 1; break;
  case 1: r = 2; break;
  case 2: r = 3; break;
  case 3: r = 4; break;
  case 4: r = 5; break;
  default: klee_assert(0); r = 0; break;
  }
  if (k > v)
    r += 10;
  return r;
}
