// Is a symbolic array of N small values a permutation of 0..N-1? `seen[a[i]]` is read and then
// written at a symbolic index (a repeated value ends the path), so a path per permutation
// survives. Then the inverse is built by symbolic-index writes (`inv[a[i]] = i`), checked
// through nested reads (`a[inv[j]] == j`, which always holds: unsatisfiable queries over a
// chain of stores), and the paths fork on the fixed points and 2-cycles seen through a[a[i]].
//   -DN=n   the length (default 8)
#include "cairn.h"

#ifndef N
#define N 8
#endif

int main(void) {
  unsigned char a[N];
  klee_make_symbolic(a, sizeof a, "a");
  for (int i = 0; i < N; ++i)
    klee_assume(a[i] < N);
  unsigned char seen[N] = {0};
  for (int i = 0; i < N; ++i) {
    if (seen[a[i]])
      return -1; // a repeated value: not a permutation
    seen[a[i]] = 1;
  }
  unsigned char inv[N];
  for (int i = 0; i < N; ++i)
    inv[a[i]] = (unsigned char)i;
  int broken = 0, fixed = 0, swaps = 0;
  for (int j = 0; j < N; ++j)
    if (a[inv[j]] != j)
      broken++;
  for (int i = 0; i < N; ++i) {
    if (a[i] == i)
      fixed++;
    else if (a[a[i]] == i)
      swaps++;
  }
  return fixed + 8 * swaps + 64 * broken;
}
