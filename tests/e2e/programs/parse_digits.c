// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=8 paths_partial=0 tests=8
//
// A small parser: up to three decimal digits from a symbolic input. Each position ends the
// number below '0', above '9', or continues: 2 + 2 + 2 + 1 = 7 paths; only with three digits
// can the value be 123, which splits that path: 8.
#include "cairn.h"

int main(void) {
  char s[3];
  klee_make_symbolic(s, sizeof s, "s");
  int v = 0, digits = 0;
  for (int i = 0; i < 3; i++) {
    char c = s[i];
    if (c < '0' || c > '9')
      break;
    v = v * 10 + (c - '0');
    digits++;
  }
  klee_assert(v < 1000);
  if (v == 123)
    return 100 + digits;
  return digits;
}
