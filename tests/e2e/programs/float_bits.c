// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=1
// EXPECT-ERROR: model symbolic-float 18
//
// A symbolic float (__VERIFIER_nondet_float) may be moved and looked at as bits without any
// floating-point operation (the sign-bit branch forks: 2 paths); comparing it as a float is a
// model error on both paths, and only the first one gets a test. 2 paths, 1 test.
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
