// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// A struct passed by value is a copy: clang passes a pointer to the caller's object with the
// byval attribute, which obliges the callee to work on its own copy. Writing to the parameter
// must not change the caller's struct. One branch: 2 paths, no error.
#include "cairn.h"

struct big {
  int v[8];
};

static int consume(struct big b) {
  int s = 0;
  for (int i = 0; i < 8; i++) {
    s += b.v[i];
    b.v[i] = -1; /* the callee's own copy */
  }
  return s;
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  struct big b;
  for (int i = 0; i < 8; i++)
    b.v[i] = x + i;
  klee_assert(consume(b) == 8 * x + 28);
  klee_assert(b.v[0] == x); /* unchanged by the call */
  klee_assert(consume(b) == 8 * x + 28);
  if (b.v[7] > 0)
    return 1;
  return 0;
}
