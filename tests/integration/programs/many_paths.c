// A job long enough to disturb while it runs: 2^12 paths (2^INPUTS with -DINPUTS=n), each
// ending with some concrete work, and two error locations reached on several paths each.
#include "cairn.h"

#ifndef INPUTS
#define INPUTS 12
#endif

static unsigned mix(unsigned h, int rounds) {
  for (int r = 0; r < rounds; ++r)
    h = (h * 31u) ^ (h >> 7) ^ (unsigned)r;
  return h;
}

int main(void) {
  unsigned char in[INPUTS];
  klee_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < INPUTS; ++i)
    if (in[i] > 'm')
      n += i;
  unsigned h = mix((unsigned)n, 2000);
  if (n == 60)
    return 10 / (n - 60); // division by zero
  int table[8] = {0};
  if (n > 58)
    table[n - 58] = 1; // out of bounds from n = 66
  return (int)(h & 1) + table[0];
}
