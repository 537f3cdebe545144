// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=24 paths_partial=0 tests=24
//
// Cross-checks insertion sort against bubble sort on a symbolic 4-element int array and asserts
// that both give the same result. Both sorts are correct and stable, so the assertion never
// fails. The insertion sort's comparisons (a[j] > key) split the inputs into 24 classes (ties
// behave like "in order"); on each, the bubble sort's comparisons and the final equality checks
// are already decided, so there are exactly 24 paths.
#include "cairn.h"
#include <string.h>

#define N 4

static void insertion_sort(int *a, int n) {
  for (int i = 1; i < n; i++) {
    int key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
}

static void bubble_sort(int *a, int n) {
  for (int i = 0; i < n - 1; i++)
    for (int j = 0; j < n - 1 - i; j++)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
}

int main(void) {
  int input[N], a[N], b[N];
  klee_make_symbolic(input, sizeof input, "input");
  memcpy(a, input, sizeof a);
  memcpy(b, input, sizeof b);
  insertion_sort(a, N);
  bubble_sort(b, N);
  for (int i = 0; i < N; i++)
    klee_assert(a[i] == b[i]);
  return 0;
}
// The same cross-check under another searcher and other solvers:
// CAIRN-VARIANT: random-state --search random-state
// CAIRN-VARIANT: cvc5 --search dfs --solver cvc5
// CAIRN-VARIANT: portfolio --search dfs --solver portfolio
