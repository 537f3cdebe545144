// CAIRN-ARGS: --search dfs --check-overflow --check-overshift
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: overflow signed-overflow 22
// EXPECT-ERROR: overflow overshift 25
//
// The checks hold on concrete values too: a signed addition that overflows after fifteen
// iterations of a loop whose operands are all concrete, and a 32-bit shift by a computed 45. The
// selector is the only symbolic value; the third case stays in range and the default does
// nothing: four paths, two errors.
#include "cairn.h"

int main(void) {
  int op;
  klee_make_symbolic(&op, sizeof op, "op");
  int x = 0x7ffffff0, amount = 5;
  for (int i = 0; i < 8; ++i)
    amount += 5;
  unsigned y = 1;
  switch (op) {
  case 0:
    for (int i = 0; i < 32; ++i)
      x = x + 1;
    break;
  case 1:
    y = y << amount;
    break;
  case 2:
    for (int i = 0; i < 8; ++i)
      x = x + 1;
    y = y << (amount - 40);
    break;
  default:
    break;
  }
  return (x & 1) + (int)(y & 1);
}
