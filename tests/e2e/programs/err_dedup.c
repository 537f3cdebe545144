// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=3
// EXPECT-ERROR: div division-by-zero 11
//
// Only the first error at a location gets a test (as in KLEE): the division in divide() is
// reached by zero on two paths (b == 0 when a > 0, c == 0 otherwise). Paths: 4 (two normal,
// two errors); tests: 3 (the second division by zero ends its path without a test).
#include "cairn.h"

static int divide(int n, int d) {
  return n / d;
}

int main(void) {
  int a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  int r;
  if (a > 0)
    r = divide(100, b);
  else
    r = divide(200, c);
  return r;
}
