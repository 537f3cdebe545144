// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: div division-by-zero 18
// EXPECT-ERROR: div division-by-zero 19
// EXPECT-ERROR: div division-by-zero 22
//
// Division by zero: a signed division and an unsigned remainder by symbolic divisors, and a
// concrete division by a zero loaded from memory. Paths: d == 0 (error), then e == 0 (error),
// then c == 5 (the concrete error) or not: 4.
#include "cairn.h"

int main(void) {
  int d, c;
  unsigned e;
  klee_make_symbolic(&d, sizeof d, "d");
  klee_make_symbolic(&e, sizeof e, "e");
  klee_make_symbolic(&c, sizeof c, "c");
  int q = 100 / d;
  unsigned r = 7u % e;
  int zero = 0;
  if (c == 5)
    q += 1 / zero;
  return q + (int)r;
}
