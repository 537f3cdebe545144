// A buffer of symbolic size filled and checked by two loops over its size.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  unsigned char *p = malloc(n);
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i & 0x7f);
  unsigned sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += p[i];
  if (n > 0 && sum < p[n - 1])
    abort();
  free(p);
  return 0;
}
