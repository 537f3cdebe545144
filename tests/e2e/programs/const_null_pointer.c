// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Integers made from pointers built on null (offsetof by hand, an address cast to an integer
// and back) stay constant expressions of ptrtoint, inttoptr and getelementptr on null, with
// integer arithmetic around them; the engine folds them. One symbolic branch: 2 paths.
#include "cairn.h"

struct S {
  int a;
  long b[3];
};

int main(void) {
  long scaled = (long)((char *)0 + 16) * 3;
  long offset = (long)&((struct S *)0)[2].b[1];
  unsigned long masked = (unsigned long)(int *)24 & 0x18u;
  long shifted = (long)((char *)0 + 5) << 2;
  klee_assert(scaled == 48);
  klee_assert(offset == 2 * sizeof(struct S) + __builtin_offsetof(struct S, b) + sizeof(long));
  klee_assert(masked == 24);
  klee_assert(shifted == 20);
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == scaled)
    return 1;
  return 0;
}
