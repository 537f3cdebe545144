// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=7 paths_partial=0 tests=7
// EXPECT-ERROR: ptr out-of-bounds 24
// EXPECT-ERROR: ptr null 26
// EXPECT-ERROR: div division-by-zero 28
// EXPECT-ERROR: assert assertion-failure 30
// EXPECT-ERROR: free double-free 34
// EXPECT-ERROR: abort abort 37
//
// Six different errors in one program, one per case of a switch on a symbolic op code, all
// with concrete operands; the default case ends normally. Paths: 7, tests: 7.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  int op;
  klee_make_symbolic(&op, sizeof op, "op");
  int arr[4] = {1, 2, 3, 4};
  int *np = 0;
  int zero = 0, four = 4;
  char *p = malloc(2);
  switch (op) {
  case 0:
    return arr[four];
  case 1:
    return *np;
  case 2:
    return 10 / zero;
  case 3:
    klee_assert(zero == 1);
    break;
  case 4:
    free(p);
    free(p);
    break;
  case 5:
    abort();
  default:
    break;
  }
  return 0;
}
