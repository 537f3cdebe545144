// An open-addressing hash set of 8-byte keys (32 slots, linear probing): look up a symbolic
// key, insert it when absent (a symbolic-index write of an 8-byte word), then look up a second
// symbolic key in the updated table. The home slot is a hash of the key, so every probe reads
// the slot array at a symbolic index, and the probe loop forks at each slot on "empty?" and
// "equal?".
//   -DFILL=n   the number of keys stored before the lookups (default 16)
#include "cairn.h"

#ifndef FILL
#define FILL 16
#endif
#define SLOTS 32

typedef unsigned long long u64;

static u64 slots[SLOTS];

static unsigned home(u64 key) {
  u64 h = key ^ (key >> 23) ^ (key >> 41);
  return (unsigned)(h ^ (h >> 5) ^ (h >> 11)) & (SLOTS - 1);
}

// The slot holding key, or the empty slot where it would go; probes counts the slots seen.
static unsigned find(u64 key, int *probes) {
  unsigned i = home(key);
  for (int n = 0; n < SLOTS; ++n) {
    ++*probes;
    if (slots[i] == 0 || slots[i] == key)
      return i;
    i = (i + 1) & (SLOTS - 1);
  }
  return SLOTS;
}

int main(void) {
  int probes = 0;
  // Keys from a fixed generator, never 0 (0 marks an empty slot).
  u64 g = 0x243F6A8885A308D3ull;
  for (int k = 0; k < FILL; ++k) {
    g = g * 6364136223846793005ull + 1442695040888963407ull;
    u64 key = g | 1;
    slots[find(key, &probes)] = key;
  }
  probes = 0;
  u64 a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_assume(a != 0);
  klee_assume(b != 0);
  int result = 0;
  unsigned i = find(a, &probes);
  if (i < SLOTS && slots[i] == 0) {
    slots[i] = a;
    result = 1;
  }
  unsigned j = find(b, &probes);
  if (j < SLOTS && slots[j] == b)
    result += 2;
  if (j == i)
    result += 4;
  return result * 64 + probes;
}
