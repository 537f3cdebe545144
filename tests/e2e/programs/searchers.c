// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=16 paths_partial=0 tests=11
// EXPECT-ERROR: div division-by-zero 19
// EXPECT-ERROR: assert assertion-failure 21
//
// The searcher corpus: the same program under dfs, bfs, random-state, random-path, covnew and
// the default (random-path and covnew taking turns) must give the same counts. Four symbolic
// bytes each above 100 or not: 16 paths. n == 2 on 6 of them divides by zero (one error, one
// test); n == 4 on one fails the assertion; n in {0, 1, 3} on 9 ends normally. Tests: 9 + 1 + 1.
#include "cairn.h"

int main(void) {
  unsigned char b[4];
  klee_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 4; i++)
    if (b[i] > 100)
      n++;
  int q = 100 / (n - 2);
  if (n == 4)
    klee_assert(0);
  return q;
}
// Every searcher finds the same paths, tests and errors (default: random-path with covnew):
// CAIRN-VARIANT: bfs --search bfs
// CAIRN-VARIANT: random-state --search random-state
// CAIRN-VARIANT: random-path --search random-path
// CAIRN-VARIANT: covnew --search covnew
// CAIRN-VARIANT: default
