// The smallest example: three paths, one test each.
//   build/client/cairn run examples/sign.c
#include "cairn.h"

int sign(int x) {
  if (x < 0)
    return -1;
  if (x == 0)
    return 0;
  return 1;
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  return sign(x);
}
