// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=28 paths_partial=0 tests=28
//
// Sparse switches: six far-apart int cases (negative, huge) plus default (7 paths), then an
// independent switch on a char with three cases plus default (4): 7 * 4 = 28 paths.
#include "cairn.h"

int main(void) {
  int x;
  char c;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&c, sizeof c, "c");
  int r = 0;
  switch (x) {
  case -5: r = 1; break;
  case 1: r = 2; break;
  case 100: r = 3; break;
  case 1000: r = 4; break;
  case 65536: r = 5; break;
  case 0x7fffffff: r = 6; break;
  default: r = 0; break;
  }
  switch (c) {
  case 'a': r += 10; break;
  case 'z': r += 20; break;
  case '0': r += 30; break;
  default: break;
  }
  return r;
}
