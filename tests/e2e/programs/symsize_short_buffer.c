// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 4
// EXPECT: paths_completed=5 paths_partial=1 tests=6
// EXPECT-ERROR: ptr out-of-bounds 24
//
// A buffer too short for one size only: the record length is off by one when n == 4. The
// concrete model fixes n to one value at the allocation and misses it; the symbolic-size model
// checks the writes against n itself and finds it, with n = 4 in the test, in every mode.
#include "cairn.h"
#include <stdlib.h>

// The length of a record of n bytes.
static size_t recordLength(size_t n) {
  if (n == 4)
    return 5;
  return n;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *buf = malloc(n);
  size_t len = recordLength(n);
  for (size_t i = 0; i < len; i++)
    buf[i] = 'x';
  free(buf);
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 4 --size-mode eager
// CAIRN-VARIANT: merge --search dfs --size-model symbolic --capacity 4 --size-mode merge
// EXPECT@merge: paths_completed=2 paths_partial=1 tests=3
// EXPECT-ERROR@merge: ptr out-of-bounds 24
// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 4 --size-mode merge-opt
// EXPECT@merge-opt: paths_completed=2 paths_partial=1 tests=3
// EXPECT-ERROR@merge-opt: ptr out-of-bounds 24
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR@concrete: model symbolic-size 21
// EXPECT-ERROR@concrete: ptr null 24
// The concrete model (KLEE's procedure): n is free, so its value is the solver's 0 (nothing to
// halve) and the path forks on n == 0: no write (1 path). The other side forks on n > 2^31:
// buf is NULL and buf[0] is a null pointer error (1 path; n == 4 cannot hold there); the sizes
// left (1 to 2^31, 4 among them) end with the model error at the malloc (1 path).
// Every symbolic-size mode also has one partial path: n > 4, above the capacity, is not
// explored; the allocation forks on n <= 4 and the other side ends there.
