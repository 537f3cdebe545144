// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=10 paths_partial=0 tests=10
//
// Calls through symbolic function pointers: a table indexed by a symbolic index (one path per
// possible target, plus i >= 4 without a call: 5), then a pointer chosen by a select between
// two functions (constant arms), which forks once more per target on every path: 10.
#include "cairn.h"

static int f0(int v) { return v; }
static int f1(int v) { return v + 1; }
static int f2(int v) { return v + 2; }
static int f3(int v) { return v + 3; }
static int (*table[4])(int) = {f0, f1, f2, f3};

static int inc(int v) { return v + 100; }
static int dec(int v) { return v - 100; }

int main(void) {
  unsigned i;
  int x;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&x, sizeof x, "x");

  int r = 0;
  if (i < 4) {
    r = table[i](7);
    klee_assert(r == 7 + (int)i);
  }
  int (*g)(int) = x > 0 ? inc : dec;
  int s = g(r);
  klee_assert(s - r == (x > 0 ? 100 : -100));
  return s;
}
