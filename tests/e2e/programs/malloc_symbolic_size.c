// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: model symbolic-size 33
// EXPECT-ERROR: model symbolic-size 21
//
// A symbolic size under the concrete size model, as KLEE treats it: a value of n, halved while
// n can be half of it and it is over 128, so at most 128 (the loop below runs that often at
// most, not millions of times), forked on n == that value; on the other side, n > 2^31 gets
// NULL (a huge malloc), and the sizes left (the value was not the only one n can take, and
// n <= 2^31) end the path with a model error at the malloc. A variable-length array of m
// elements goes the same way, where m can never make it huge: its count is fixed and forked
// on, and the other counts end with the model error at the array. Paths: the small size with
// the small count, the model error at the array, the huge size, the model error at the
// malloc: 4. Replay runs malloc with sizes over 2^31 returning NULL, as here.
#include "cairn.h"
#include <stdlib.h>

#define HUGE_SIZE 2147483648u

static int sum(unsigned char m) {
  int a[m];
  for (int i = 0; i < m; i++)
    a[i] = i;
  int s = 0;
  for (int i = 0; i < m; i++)
    s += a[i];
  return s;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  if (!p) {
    klee_assert(n > HUGE_SIZE);
    return 1;
  }
  for (size_t i = 0; i < n; i++)
    p[i] = 'a';
  klee_assert(n <= 128);
  free(p);
  unsigned char m;
  klee_make_symbolic(&m, sizeof m, "m");
  return sum(m) == m * (m - 1) / 2 ? 0 : 2;
}
