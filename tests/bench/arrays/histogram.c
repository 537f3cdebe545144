// A histogram of N symbolic samples, each assumed below B: `count[x[i]]++` reads and writes a
// 4-byte counter at a symbolic index, so after the loop every counter is an expression over a
// chain of N symbolic-index stores. The paths then fork on finding the most frequent bucket
// (comparisons of two counters), on the count of the first sample's bucket (a read at a
// symbolic index of the stored array) and on whether the mode is a majority.
//   -DN=n   the number of samples (default 6)   -DB=n   the number of buckets (default 4)
#include "cairn.h"

#ifndef N
#define N 6
#endif
#ifndef B
#define B 4
#endif

int main(void) {
  unsigned char x[N];
  klee_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < N; ++i)
    klee_assume(x[i] < B);
  int count[B] = {0};
  for (int i = 0; i < N; ++i)
    count[x[i]]++;
  int mode = 0;
  for (int b = 1; b < B; ++b)
    if (count[b] > count[mode])
      mode = b;
  int result = mode;
  if (count[x[0]] == 1)
    result += 16; // the first sample's value is unique
  if (count[mode] * 2 > N)
    result += 32; // a majority
  return result;
}
