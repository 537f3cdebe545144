// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// A symbolic float (__VERIFIER_nondet_float) moved and looked at as bits (the sign-bit branch
// forks) and compared as a float: a negative f is never above 1.0, so 3 paths. Under --float
// concrete (the variant at the end) the comparison is a model error on both paths, and only
// the first one gets a test: 2 paths, 1 test.
#include "cairn.h"
#include <string.h>

int main(void) {
  float f = __VERIFIER_nondet_float();
  unsigned bits;
  memcpy(&bits, &f, sizeof bits);
  int n = 0;
  if (bits >> 31)
    n = 1;
  if (f > 1.0f)
    n += 2;
  return n;
}
// CAIRN-VARIANT: concrete --search dfs --float concrete
// EXPECT@concrete: paths_completed=2 paths_partial=0 tests=1
// EXPECT-ERROR@concrete: model symbolic-float 18
