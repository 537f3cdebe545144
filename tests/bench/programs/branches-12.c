// 4096 paths: each of 12 input bytes is compared once. -DBYTES=16 makes the 65,536-path variant,
// long enough that start-up does not dominate the run.
#include "cairn.h"
#ifndef BYTES
#define BYTES 12
#endif
int main(void) {
  unsigned char in[BYTES];
  klee_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < BYTES; ++i)
    if (in[i] > 'm')
      n += i;
  return n;
}
