// CAIRN-ARGS: --search dfs --check-overflow
// EXPECT: paths_completed=9 paths_partial=0 tests=9
// EXPECT-ERROR: overflow signed-overflow 21
// EXPECT-ERROR: overflow signed-overflow 24
// EXPECT-ERROR: overflow signed-overflow 27
// EXPECT-ERROR: overflow signed-overflow 30
//
// --check-overflow on each signed operation that can overflow: int subtraction, int
// multiplication, negation (0 - INT_MIN) and 64-bit multiplication. Each case overflows on one
// path and not on another; the default does no arithmetic: 4 * 2 + 1 = 9 paths, 4 errors.
#include "cairn.h"

int main(void) {
  int op, a, b;
  klee_make_symbolic(&op, sizeof op, "op");
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  long long r = 0;
  switch (op) {
  case 0:
    r = a - b;
    break;
  case 1:
    r = a * b;
    break;
  case 2:
    r = -a;
    break;
  case 3:
    r = (long long)a * 8589934592LL;
    break;
  default:
    break;
  }
  return r != 0;
}
