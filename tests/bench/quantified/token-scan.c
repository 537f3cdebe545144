// A tokenizer in the style of the paper's libosip and apr subjects: over a string of symbolic
// length, CHAIN times skip a run of separators (strspn-like) and then a token (strcspn-like),
// counting the tokens; both loops depend on the size.
#include "cairn.h"
#include <stdlib.h>

static size_t span(const char *s, char c) { // strspn(s, " ") for one separator
  size_t i = 0;
  while (s[i] == c)
    i++;
  return i;
}

static size_t cspan(const char *s, char c) { // strcspn(s, " ") for one separator
  size_t i = 0;
  while (s[i] != '\0' && s[i] != c)
    i++;
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  const char *p = s;
  int tokens = 0;
  for (int j = 0; j < CHAIN; j++) {
    p += span(p, ' ');
    size_t len = cspan(p, ' ');
    if (!len)
      break;
    tokens++;
    p += len;
  }
  return tokens;
}
