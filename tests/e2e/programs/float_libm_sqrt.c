// CAIRN-ARGS: --search dfs --solver cvc5
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// sqrtf is correctly rounded: sqrtf(x) == 3 only for x == 9 (its neighbours' roots round
// away from 3), so the assertion cannot fail; the root of a negative number is NaN. Paths:
// x == 9, NaN, the rest (the last ?: is a select): 3. cvc5 takes 2 s here, Z3 4.8.12 over a
// minute on the first query.
#include "cairn.h"
#include <math.h>

int main(void) {
  float x;
  klee_make_symbolic(&x, sizeof x, "x");
  float r = sqrtf(x);
  if (r == 3.0f) {
    klee_assert(x == 9.0f);
    return 1;
  }
  if (r != r)
    return 2;
  return r * r != x ? 3 : 0;
}
