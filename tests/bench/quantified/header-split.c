// A header line split as SIP and HTTP parsers split it (libosip's osip_message_parse, apr's
// apr_table parsing): "name: value" fields separated by ';', CHAIN fields over a string of
// symbolic length: each field is a strchr for ':' then a strchr for ';' from there.
#include "cairn.h"
#include <stdlib.h>

static const char *find(const char *s, char c) {
  size_t i = 0;
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
  const char *p = s;
  int fields = 0;
  for (int j = 0; j < CHAIN && p; j++) {
    const char *colon = find(p, ':');
    if (!colon)
      break;
    fields++;
    p = find(colon + 1, ';');
    if (p)
      p++;
  }
  return fields;
}
