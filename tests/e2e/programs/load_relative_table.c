// CAIRN-ARGS: --search dfs --cflag -O2 --cflag -fPIC
// EXPECT: paths_completed=5 paths_partial=0 tests=5
// EXPECT-ERROR: assert assertion-failure 26
//
// An optimised position-independent build turns a switch that picks a string into a table of
// 32-bit offsets relative to the table (llvm.load.relative); a symbolic index reads it at every
// feasible entry. Paths: x out of range, and each of the four names, one of them failing.
#include <assert.h>
#include <string.h>

#include "cairn.h"

__attribute__((noinline)) static const char *name(unsigned x) {
  switch (x) {
  case 0: return "zero";
  case 1: return "one";
  case 2: return "two";
  case 3: return "three";
  default: return "many";
  }
}

int main(void) {
  unsigned x = klee_int("x");
  const char *n = name(x);
  assert(strlen(n) != 5 || n[0] != 't');
  return 0;
}
