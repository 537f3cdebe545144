// An exhaustive job of 2^15 = 32,768 paths: fifteen independent branches over symbolic bytes,
// each path ending with a little concrete work. The service benchmark's default program.
#include "cairn.h"

static unsigned mix(unsigned h, int rounds) {
  for (int r = 0; r < rounds; ++r)
    h = (h * 31u) ^ (h >> 7) ^ (unsigned)r;
  return h;
}

int main(void) {
  unsigned char in[15];
  klee_make_symbolic(in, sizeof in, "in");
  unsigned n = 0;
  for (int i = 0; i < 15; ++i)
    if (in[i] > 'm')
      n |= 1u << i;
  return (int)(mix(n, 200) & 1);
}
