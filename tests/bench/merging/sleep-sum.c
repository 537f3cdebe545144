// The paper's `sleep`: N arguments of up to L decimal digits (symbolic), each parsed and added
// to `seconds`, which nothing branches on until the end. The parse forks on every digit (is it
// one? which?), and without merging the paths multiply across the arguments; the states after
// each argument differ only in the symbolic sum, which is not hot, so they merge.
//   -DN=n   arguments (default 4)   -DL=n   digits per argument (default 3)
#include "cairn.h"

#ifndef N
#define N 4
#endif
#ifndef L
#define L 3
#endif

int main(void) {
  char arg[N][L + 1];
  klee_make_symbolic(arg, sizeof arg, "arg");
  long seconds = 0;
  for (int a = 0; a < N; ++a) {
    arg[a][L] = 0;
    long value = 0;
    for (int i = 0; arg[a][i] >= '0' && arg[a][i] <= '9'; ++i)
      value = value * 10 + (arg[a][i] - '0');
    seconds += value;
  }
  return (int)(seconds & 0x7f);
}
