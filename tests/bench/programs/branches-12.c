// 4096 paths: each of 12 input bytes is compared once.
#include "cairn.h"
int main(void) {
  unsigned char in[12];
  klee_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < 12; ++i)
    if (in[i] > 'm')
      n += i;
  return n;
}
