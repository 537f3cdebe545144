// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4
// EXPECT: paths_completed=5 paths_partial=1 tests=6
// EXPECT-ERROR: ptr out-of-bounds 20
//
// strncpy is the runtime's C (libc-string.c), byte loops over the length, so a symbolic length
// stays symbolic as any loop bound does and each write is checked against the size: copying
// n + (n == 2) bytes of "abc" writes one byte past the end for n = 2 only. Lazily, the loops
// fork once per length: n = 0, 1, 2 (the error), 3, 4, and n > 4 is cut by the capacity.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 16);
  char *dst = malloc(n);
  // The length as a value, not a branch: one more byte when n == 2.
  size_t len = n + (n == 2);
  strncpy(dst, "abc", len);
  free(dst);
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 4 --size-mode eager
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR@concrete: model symbolic-size 17
// The concrete model fixes n to 0 at the malloc (1 path) and ends the other sizes with its
// model error there: the overflow at n == 2 is not found.
