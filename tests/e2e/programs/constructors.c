// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Functions marked __attribute__((constructor)) run before main, in priority order (as KLEE
// runs llvm.global_ctors). One branch: 2 paths, no error.
#include "cairn.h"

static int initialised, order;

__attribute__((constructor(200))) static void second(void) {
  order = order * 10 + 2;
  initialised = 42;
}

__attribute__((constructor(101))) static void first(void) { order = order * 10 + 1; }

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assert(initialised == 42);
  klee_assert(order == 12);
  if (x > 0)
    return 1;
  return 0;
}
