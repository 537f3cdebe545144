// Figure 1.7 of the symbolic-size chapter: a loop over a buffer of symbolic size that may break.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  size_t n;
  int z;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&z, sizeof z, "z");
  char *p = malloc(n);
  for (int i = 0; i < n; i++) {
    if (z == 0)
      break;
    if (i > 0)
      p[i] = i;
  }
  return 0;
}
