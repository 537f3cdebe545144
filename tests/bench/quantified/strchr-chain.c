// The thesis' strchr chain (Fig. 1.8): a string of symbolic length searched CHAIN times for
// 'a', each search starting after the last match. Each search loop depends on the size.
#include "cairn.h"
#include <stdlib.h>

static char *find(char *s, int c) {
  int i = 0;
  while (s[i] != '\0') {
    if (s[i] == c)
      return s + i;
    i++;
  }
  return NULL;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  char *p = s;
  int found = 0;
  for (int j = 0; j < CHAIN; j++) {
    p = find(p, 'a');
    if (!p)
      break;
    p++;
    found++;
  }
  return found == CHAIN;
}
