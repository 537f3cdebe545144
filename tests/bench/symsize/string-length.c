// A string of symbolic length and contents: strlen stops at the first NUL, which may come
// anywhere before the last byte, and the copy loop runs over what strlen found.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  if (n == (size_t)-1)
    return 0;
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t len = strlen(s);
  char *copy = malloc(len + 1);
  for (size_t i = 0; i <= len; i++)
    copy[i] = s[i];
  return copy[len];
}
