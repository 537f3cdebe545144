// Heap objects on many paths, for the memory models as distributed jobs: 2^10 paths, each with
// its own heap layout (the sizes depend on the path), a heap table read at a symbolic index
// (the engine concretizes the pointer, so a replayed prefix must rebuild the same addresses),
// a buffer of a symbolic size, and an out-of-bounds read reached on some paths.
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
  int n = 0;
  for (int i = 0; i < 10; ++i)
    if (in[i] > 'm')
      n += i;
  char *pad = malloc(1 + (unsigned)n % 7); // moves what follows by a path-dependent amount
  unsigned size = 4 + (unsigned)n % 4;
  int *table = malloc(size * sizeof *table);
  for (unsigned i = 0; i < size; ++i)
    table[i] = (int)(i * 3);
  int v = 0;
  if (n == 45)
    v = table[k]; // out of bounds from k = size
  else if (k < size)
    v = table[k];
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
