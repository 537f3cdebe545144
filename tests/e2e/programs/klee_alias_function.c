// CAIRN-ARGS: --search dfs
// NO-REPLAY: klee_alias_function redirects calls under analysis only; a native run cannot
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: user alias-function 35
// EXPECT-ERROR: user alias-function 39
//
// klee_alias_function(fn, alias): on this path, calls by name to fn go to alias from then on;
// the same name twice takes the alias back. The alias is per path: made on one side of a
// fork, the other side still calls fn. Calls through a function pointer are not redirected.
// Paths: x > 0 (the alias), x <= 0 (none); then on the second, k == 0: an alias to a function
// the program does not define, k == 1: to one of another type (errors), else nothing.
#include "cairn.h"

static int original(int v) { return v + 1; }
static int replacement(int v) { return v * 10; }
static long other_type(long v) { return v; }

int main(void) {
  int (*through_pointer)(int) = original;
  int x = klee_int("x");
  if (x > 0) {
    klee_alias_function("original", "replacement");
    klee_assert(original(4) == 40);
    klee_assert(through_pointer(4) == 5);
    klee_alias_function("original", "original");
    klee_assert(original(4) == 5);
    klee_alias_function("original", "replacement");
    klee_assert(original(5) == 50);
    klee_assert(replacement(5) == 50);
    return 1;
  }
  klee_assert(original(4) == 5);
  int k = klee_int("k");
  if (k == 0) {
    klee_alias_function("original", "missing_function");
  } else if (k == 1) {
    klee_alias_function("original", "other_type");
    klee_assert(other_type(3) == 3);
    original(3);
  }
  return 0;
}
