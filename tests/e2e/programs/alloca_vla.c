// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// alloca: fixed-size locals, variable-length arrays (dynamic alloca, stacksave/stackrestore
// in a loop), a symbolic read from a VLA. Paths: k < 4 (then the value is k * k, == 9 only for
// k = 3: two ways) or k >= 4 (-1): 3.
#include "cairn.h"

static int sum_vla(int n, int seed) {
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = seed + i;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

static int probe(int n, unsigned k) {
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = i * i;
  if (k < (unsigned)n)
    return a[k];
  return -1;
}

int main(void) {
  int seed;
  unsigned k;
  klee_make_symbolic(&seed, sizeof seed, "seed");
  klee_make_symbolic(&k, sizeof k, "k");

  klee_assert(sum_vla(5, seed) == 5 * seed + 10);
  int total = 0;
  for (int m = 1; m <= 4; m++) {
    char scratch[m * 3];
    scratch[m * 3 - 1] = (char)m;
    total += sum_vla(m, 1) + scratch[m * 3 - 1];
  }
  klee_assert(total == 1 + 3 + 6 + 10 + 10);

  int v = probe(4, k);
  if (v == 9)
    return 1;
  return 0;
}
