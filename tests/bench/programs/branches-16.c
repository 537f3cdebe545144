// 65,536 paths: each of 16 input bytes is compared once (branches-12 with sixteen times the
// paths, for a run long enough that start-up does not dominate it).
#include "cairn.h"
int main(void) {
  unsigned char in[16];
  klee_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < 16; ++i)
    if (in[i] > 'm')
      n += i;
  return n;
}
