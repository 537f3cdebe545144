// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=9 paths_partial=0 tests=9
//
// A threaded-code interpreter with GNU labels as values: goto *dispatch[op]. The two opcodes
// are symbolic (each 0..2), so each indirect branch has three possible targets and forks once
// per target, as a call through a symbolic function pointer does: 3 * 3 = 9 paths.
#include "cairn.h"

static int run(const unsigned char *code, int n) {
  static void *dispatch[] = {&&op_inc, &&op_dbl, &&op_neg};
  int acc = 1, pc = 0;
next:
  if (pc == n)
    return acc;
  goto *dispatch[code[pc++]];
op_inc:
  acc += 1;
  goto next;
op_dbl:
  acc *= 2;
  goto next;
op_neg:
  acc = -acc;
  goto next;
}

int main(void) {
  unsigned char code[2];
  klee_make_symbolic(code, sizeof code, "code");
  klee_assume(code[0] < 3);
  klee_assume(code[1] < 3);
  int r = run(code, 2);
  klee_assert(r >= -2);
  klee_assert(r <= 4);
  return r;
}
