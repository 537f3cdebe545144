// CAIRN-ARGS: --search dfs --cflag -O1
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// Loop-carried phi nodes: compiled with -O1 (after Cairn's -O0, so it wins), mem2reg turns the
// loop counters and accumulators into phis. bounded_len stops at the first NUL of a 3-byte
// symbolic string (lengths 0..3: 4 paths); checksum then runs a concrete number of times;
// h == 97 is possible for length 1 ("a") and length 2 (e.g. 3 * 31 + 4), not for length 0
// (h == 0) or 3 (at least 961): 1 + 2 + 2 + 1 = 6 paths.
#include "cairn.h"

volatile int hits;

__attribute__((noinline)) int bounded_len(const char *s, int max) {
  int i = 0;
  while (i < max && s[i] != 0)
    i++;
  return i;
}

__attribute__((noinline)) unsigned checksum(const unsigned char *s, int n) {
  unsigned h = 0;
  for (int i = 0; i < n; i++)
    h = h * 31 + s[i];
  return h;
}

int main(void) {
  char s[4];
  klee_make_symbolic(s, 3, "s");
  s[3] = 0;
  int n = bounded_len(s, 4);
  unsigned h = checksum((const unsigned char *)s, n);
  if (h == 97) /* a volatile store keeps this a branch at -O1 */
    hits++;
  return n;
}
