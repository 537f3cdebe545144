// A path whose memory is all in its terms: the value is squared in a loop, each iteration adds
// new nodes to its term while the path's objects stay a few bytes. Only the hard ceiling of
// --max-memory stops it (the loop would run for hours).
#include "cairn.h"

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  for (unsigned i = 0; i < 4000000000u; ++i)
    x = x * x + i;
  return 0;
}
