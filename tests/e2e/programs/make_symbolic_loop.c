// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=8 paths_partial=0 tests=8
//
// klee_make_symbolic called again on the same variable in a loop makes a fresh input each time
// (three inputs named "v"): each is positive or not independently: 8 paths.
#include "cairn.h"

int main(void) {
  int n = 0;
  for (int i = 0; i < 3; i++) {
    int v;
    klee_make_symbolic(&v, sizeof v, "v");
    if (v > 0)
      n++;
  }
  return n;
}
