// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 8
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 22
//
// memmove of a symbolic length within one 8-byte buffer, under the symbolic-size model: moving
// m bytes to buf + 2 overflows for m = 7 and 8 only (the error). Where it fits, the bytes are
// read before any is written, and byte i moves iff i < m: below m the moved byte, past it the
// byte that was there, for every m and k (the check is a value, not a branch: no fork). Paths:
// the error, and the lengths that fit. The concrete model fixes m to one value at the memmove
// (the solver's 1): one path, no error.
#include "cairn.h"
#include <string.h>

int main(void) {
  char buf[8] = "abcdefg";
  const char *was = "abcdefg";
  size_t m, k;
  klee_make_symbolic(&m, sizeof m, "m");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(m <= 8);
  klee_assume(k < 6);
  memmove(buf + 2, buf, m);
  char want = (char)((k < m) * was[k] + (k >= m) * was[k + 2]);
  klee_assert(buf[k + 2] == want);
  return 0;
}

// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 8 --size-mode merge-opt
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=1 paths_partial=0 tests=1
