// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: assert assertion-failure 13
//
// klee_report_error with the suffix "assert.err" reports an assertion failure at the given file
// and line. Paths: x == 123 (the error) or not: 2.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 123)
    klee_report_error(__FILE__, __LINE__, "x is 123", "assert.err");
  return 0;
}
