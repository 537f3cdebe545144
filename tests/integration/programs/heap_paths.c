// Heap objects on many paths, for the memory models as distributed jobs. The first forks lay
// the heap out differently and read a heap table, or one of three heap rows, at a symbolic
// index (the engine concretizes the pointer, and that address is part of every later path's
// prefix, so an engine that replays a prefix must rebuild the same addresses); then 2^9 paths
// of concrete work below them, a buffer of a symbolic size on some, and an out-of-bounds read
// on others.
#include "cairn.h"

#include <stdlib.h>

static unsigned mix(unsigned h, int rounds) {
  for (int r = 0; r < rounds; ++r)
    h = (h * 31u) ^ (h >> 7) ^ (unsigned)r;
  return h;
}

int main(void) {
  unsigned char in[10], k, len;
  klee_make_symbolic(in, sizeof in, "in");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_make_symbolic(&len, sizeof len, "len");
  char *pad = malloc(in[0] > 'm' ? 40 : 8); // what follows lies elsewhere on each side
  int *table = malloc(6 * sizeof *table);
  for (unsigned i = 0; i < 6; ++i)
    table[i] = (int)(i * 3);
  char *rows[3]; // a pointer into one of them: a fork per row, or one segment (--merge-objects)
  for (int i = 0; i < 3; ++i) {
    rows[i] = malloc(8 + 8 * (unsigned)i);
    rows[i][1] = (char)i;
  }
  int v = k < 6 ? table[k] : rows[k % 3][1];
  int n = 0;
  for (int i = 1; i < 10; ++i)
    if (in[i] > 'm')
      n += i;
  if (n == 44)
    v += table[k]; // out of bounds from k = 6
  if (n % 9 == 1 && len >= 1 && len <= 4) {
    char *buf = malloc(len);
    buf[len - 1] = (char)v;
    v += buf[len - 1];
    free(buf);
  }
  unsigned h = mix((unsigned)(n + v), 1000);
  free(table);
  free(pad);
  return (int)(h & 1);
}
