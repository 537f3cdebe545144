// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr invalid-function-pointer 17
// EXPECT-ERROR: ptr invalid-function-pointer 19
//
// Calls through pointers that do not point to a function: the address of a data object, and an
// integer cast to a function pointer. Paths: x == 7, x == 8 (the two errors), neither: 3.
#include "cairn.h"

static int data = 5;

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int (*fp)(void) = (int (*)(void))(void *)&data;
  if (x == 7)
    return fp();
  if (x == 8)
    ((void (*)(void))(unsigned long)0x1234)();
  return 0;
}
