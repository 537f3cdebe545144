// A byte-wise checksum over N symbolic bytes with a data-dependent step per byte (odd bytes are
// added, even ones xored in) and a final test of the sum. Every fork's two sides rejoin at the
// end of the iteration with the sum symbolic in both: they merge, one state per iteration.
//   -DN=n   message bytes (default 12)
#include "cairn.h"

#ifndef N
#define N 12
#endif

int main(void) {
  unsigned char msg[N];
  klee_make_symbolic(msg, sizeof msg, "msg");
  unsigned sum = 0x55;
  for (int i = 0; i < N; ++i) {
    if (msg[i] & 1)
      sum += msg[i];
    else
      sum ^= (unsigned)msg[i] << 3;
  }
  if (sum == 0x1234)
    return 1;
  return 0;
}
