// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// Booleans (i1): _Bool inputs from __VERIFIER_nondet_bool, logical not (xor i1), bitwise
// operations on promoted booleans, and && used as a value: a phi of i1 (branching on p only;
// q flows into the phi). t ? 4 : 0 is a select. Paths: p true or false (2), then r = p ^ q
// forks on q in both (4).
#include "cairn.h"

int main(void) {
  _Bool p = __VERIFIER_nondet_bool();
  _Bool q = __VERIFIER_nondet_bool();
  _Bool r = p ^ q;
  _Bool s = !p;
  klee_assert(s != p);
  klee_assert(r == ((p | q) & !(p & q)));
  klee_assert((_Bool)(p + q) == (p | q));

  _Bool t = p && q; /* branches: a phi of i1 */
  int n = t ? 4 : 0;
  if (r)
    n += 1;
  return n;
}
