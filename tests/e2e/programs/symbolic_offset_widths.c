// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// Stores and loads of different widths at symbolic offsets of one object: a byte written at a
// symbolic offset of an int array read back as ints and as a 64-bit value, and an int written
// at a symbolic index read back as bytes. Paths: the byte landed in words[0] or not (2), times
// k == 0 or not for the int store (2): 4.
#include "cairn.h"
#include <string.h>

int main(void) {
  unsigned i, k;
  unsigned char v;
  int w;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_make_symbolic(&v, sizeof v, "v");
  klee_make_symbolic(&w, sizeof w, "w");
  klee_assume(i < 8);
  klee_assume(k < 2);
  klee_assume(v != 0);

  unsigned words[2] = {0, 0};
  ((unsigned char *)words)[i] = v;
  unsigned long long both;
  memcpy(&both, words, sizeof both);
  klee_assert(both == (unsigned long long)v << (8 * i));
  int n = 0;
  if (words[0] != 0)
    n += 1;

  int ints[2] = {0, 0};
  ints[k] = w;
  unsigned char *bytes = (unsigned char *)ints;
  klee_assert(bytes[4 * k] == (unsigned char)w);
  klee_assert(bytes[4 * k + 3] == (unsigned char)((unsigned)w >> 24));
  if (k == 0)
    n += 2;
  return n;
}
