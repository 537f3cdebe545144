// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr null 16
// EXPECT-ERROR: div division-by-zero 16
//
// Two different errors on one line: tests are kept per (file, line, type, kind), so both get
// one. Paths: c == 1 (p is null: the null error), else d == 0 (division by zero), else
// normal: 3 paths, 3 tests.
#include "cairn.h"

int main(void) {
  int c, d, v = 100;
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&d, sizeof d, "d");
  int *p = c == 1 ? 0 : &v;
  return *p / d;
}
