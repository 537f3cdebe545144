// CAIRN-ARGS: --search dfs --only-new-coverage-tests
// EXPECT: paths_completed=8 paths_partial=0 tests=5
// EXPECT-ERROR: ptr out-of-bounds 26
// EXPECT@all: paths_completed=8 paths_partial=0 tests=8
// EXPECT-ERROR@all: ptr out-of-bounds 26
//
// --only-new-coverage-tests: a test only for a path that ran a line or took a branch edge first,
// and for every error. Eight paths through three ifs, depth first with the true sides first:
// TTT runs everything first; TTF takes the third if's false edge first; TFT the second's (the
// copy made at a fork starts with no credit: the original keeps it for their common part);
// FTT the first's; TFF, FTF, FFT take no edge or line first. FFF takes none either, but writes
// one past buf's end: its error gets a test. 4 + 1 tests; every path gets one without the flag.
#include "cairn.h"

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  int n = 0;
  if (x & 1)
    n++;
  if (x & 2)
    n++;
  if (x & 4)
    n++;
  char buf[3] = {0};
  buf[3 - n] = 1;
  return buf[0];
}
// CAIRN-VARIANT: all --search dfs
