// A branch-free binary search (lower bound) in a sorted table of 64 ints for KEYS symbolic
// keys: each halving step adds `half * (table[base + half] < key)` to the base, so the index of
// every read is symbolic and depends on all earlier reads of the same search (six nested reads
// of a 4-byte table). The paths then fork on whether each key was found, on the order of the
// positions found, and on a read of a second table (the gaps) at each position.
//   -DKEYS=n   the number of symbolic keys (default 3)
#include "cairn.h"

#ifndef KEYS
#define KEYS 3
#endif
#define N 64

static int table[N], gap[N];

static unsigned lower_bound(int key) {
  unsigned base = 0, n = N;
  while (n > 1) {
    unsigned half = n / 2;
    base += half * (unsigned)(table[base + half] < key);
    n -= half;
  }
  return base + (unsigned)(table[base] < key);
}

int main(void) {
  // Ascending values with irregular gaps: v(i) = 3i + i*i/7 - 40.
  for (int i = 0; i < N; ++i)
    table[i] = 3 * i + i * i / 7 - 40;
  for (int i = 0; i + 1 < N; ++i)
    gap[i] = table[i + 1] - table[i];
  gap[N - 1] = 0;
  int keys[KEYS];
  klee_make_symbolic(keys, sizeof keys, "keys");
  unsigned found = 0, prev = 0, ordered = 0, wide = 0;
  for (int k = 0; k < KEYS; ++k) {
    unsigned pos = lower_bound(keys[k]);
    if (pos < N && table[pos] == keys[k])
      found |= 1u << k;
    if (pos > prev)
      ordered++;
    if (pos < N && gap[pos] > 8)
      wide++;
    prev = pos;
  }
  return (int)(found + 8 * ordered + 64 * wide);
}
