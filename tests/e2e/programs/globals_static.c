// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Globals: initialised arrays and structs, pointers to other globals in initialisers, string
// constants, static locals keeping their value across calls, zero-initialised globals, and a
// global written with a symbolic value. One branch: 2 paths.
#include "cairn.h"

int g_arr[3] = {1, 2, 3};
int *g_ptr = &g_arr[2];
const char *g_msg = "hi";
int g_zero[100];
struct cfg {
  int a;
  const char *name;
  int *p;
} g_cfg = {5, "cfg", &g_arr[0]};

static int counter(void) {
  static int n = 0;
  return ++n;
}

int main(void) {
  counter();
  counter();
  klee_assert(counter() == 3);
  klee_assert(*g_ptr == 3);
  klee_assert(g_msg[1] == 'i');
  klee_assert(*g_cfg.p == 1);
  klee_assert(g_cfg.name[2] == 'g');
  klee_assert(g_zero[99] == 0);

  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  g_arr[1] = x;
  *g_cfg.p = 10;
  klee_assert(g_arr[0] == 10);
  if (g_arr[1] > 0)
    return 1;
  return 0;
}
