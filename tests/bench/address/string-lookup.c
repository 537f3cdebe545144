// A table of heap strings searched for a symbolic name, after paths that allocate differently:
// every comparison reads a heap buffer through a pointer taken from the table at a symbolic
// index, so the queries carry the buffers' addresses.
#include "cairn.h"

#include <stdlib.h>
#include <string.h>

#define FORKS 4
#define NAMES 6

static const char *names[NAMES] = {"add", "sub", "mul", "div", "mod", "neg"};

int main(void) {
  unsigned char pre[FORKS];
  klee_make_symbolic(pre, sizeof pre, "pre");
  for (unsigned k = 0; k < FORKS; k++)
    if (pre[k] < 50) {
      char *scratch = malloc(40 + 16 * k);
      scratch[0] = (char)k;
    }
  char **table = malloc(NAMES * sizeof(char *));
  for (unsigned n = 0; n < NAMES; n++) {
    table[n] = malloc(4);
    memcpy(table[n], names[n], 4);
  }
  unsigned slot;
  char c;
  klee_make_symbolic(&slot, sizeof slot, "slot");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_assume(slot < NAMES);
  const char *entry = table[slot];
  if (entry[0] == c && entry[1] == 'u')
    return 1;
  return 0;
}
