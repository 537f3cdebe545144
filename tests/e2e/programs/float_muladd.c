// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// a * b + c in one expression becomes llvm.fmuladd, which may fuse or not; a native x86-64
// build (no FMA) rounds the product first, so the engine does too, at the operand's own
// precision. The products here round to 1, so the sums are 0; fused, they would not be.
// The only symbolic input never reaches floating point: one branch, 2 paths, no error.
#include "cairn.h"

int main(void) {
  double a = 1 + 0x1p-30, b = 1 - 0x1p-30, c = -1;
  double d = a * b + c;
  klee_assert(d == 0);
  float fa = 1 + 0x1p-13f, fb = 1 - 0x1p-13f, fc = -1;
  float f = fa * fb + fc;
  klee_assert(f == 0);
  long double la = 1 + 0x1p-40L, lb = 1 - 0x1p-40L, lc = -1;
  long double l = la * lb + lc;
  klee_assert(l == 0);

  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0)
    return 1;
  return 0;
}
