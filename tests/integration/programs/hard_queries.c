// Queries no solver answers within seconds: nonlinear multiplication, division and remainder
// over 64-bit inputs, then a factorisation of a 64-bit number. A run of it with a short
// --max-time ends while its solver is deep in a query.
#include "cairn.h"

#include <stdint.h>

int main(void) {
  uint64_t a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  uint64_t x = a * b + c;
  x = x * x / (b | 1);
  x = x * a % (c | 3);
  if (x == 0x123456789abcdefULL)
    return 1;
  if (a > 1 && b > 1 && a < 0xffffffffULL && b < 0xffffffffULL && a * b == 0xfffffff27ffffff7ULL)
    return 2;
  return 0;
}
