// CAIRN-ARGS: --search dfs --solver portfolio
// EXPECT: paths_completed=24 paths_partial=0 tests=24
//
// sort_crosscheck.c with the portfolio core solver: the same 24 paths as with Z3.
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
