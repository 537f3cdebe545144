// A search with two loop exits: found (return inside the loop) or not.
#include "cairn.h"
#include <stdlib.h>

static long find(const unsigned char *p, size_t n, unsigned char c) {
  for (size_t i = 0; i < n; i++)
    if (p[i] == c)
      return (long)i;
  return -1;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  unsigned char *p = malloc(n);
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 7);
  long at = find(p, n, 42);
  if (at >= 0 && p[at] != 42)
    abort();
  return 0;
}
