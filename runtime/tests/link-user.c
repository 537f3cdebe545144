/* runtime-bitcode: a program that defines its own reach_error and strlen (as SV-COMP tasks and
 * some programs do) links with the runtime bitcode, and keeps its own definitions. */
#include <stddef.h>
#include <stdlib.h>

#include "cairn.h"

void reach_error(void) { klee_abort(); }

size_t strlen(const char *s) { return 7; }

int main(void) {
  int x = __VERIFIER_nondet_int();
  long v = strtol("12", 0, 10);
  if (x == v)
    reach_error();
  return (int)strlen("abc");
}
