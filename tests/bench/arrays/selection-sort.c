// Selection sort of N symbolic ints where the minimum's position is found without branching
// (`m += (j - m) * (a[j] < a[m])`), so it is a symbolic index: every later comparison reads
// the array at it, and the swap writes the array at it (symbolic-index stores into an array of
// symbolic contents). The path forks only on whether a round moved an element (m != i) and on
// the final order, which holds (those queries are unsatisfiable: the proof that the sort sorts).
//   -DN=n   the number of elements (default 5)
#include "cairn.h"

#ifndef N
#define N 5
#endif

int main(void) {
  int a[N];
  klee_make_symbolic(a, sizeof a, "a");
  int moved = 0;
  for (int i = 0; i + 1 < N; ++i) {
    int m = i;
    for (int j = i + 1; j < N; ++j)
      m += (j - m) * (a[j] < a[m]);
    if (m != i)
      moved++;
    int t = a[i];
    a[i] = a[m];
    a[m] = t;
  }
  int unsorted = 0;
  for (int i = 0; i + 1 < N; ++i)
    if (a[i] > a[i + 1])
      unsorted++;
  return moved + 16 * unsorted;
}
