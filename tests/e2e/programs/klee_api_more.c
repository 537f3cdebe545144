// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=2
// EXPECT-ERROR: assert assertion-failure 26
//
// More of KLEE's API: klee_choose (a fresh input below n; the inputs past it end their path
// silently, with no test), klee_warning and klee_warning_once (the run's log), klee_print_expr,
// klee_get_valuef/klee_get_valued, klee_is_replay (0 here, 1 natively). Three paths: the silent
// one, c == 2 (the assertion), c < 2.
#include "cairn.h"

int main(void) {
  unsigned c = (unsigned)klee_choose(3);
  for (int i = 0; i < 2; i++) {
    klee_warning("a warning each time");
    klee_warning_once("a warning once");
  }
  klee_print_expr("c", c);
  float f = klee_get_valuef(1.5f);
  double d = klee_get_valued(2.25);
  if (f != 1.5f || d != 2.25)
    return 1;
  int replaying = klee_is_replay();
  if (replaying != 0 && replaying != 1)
    return 2;
  if (c == 2)
    klee_assert(c != 2);
  return 0;
}
