#include "cairn.h"
#define N 5
void insertion_sort(int *a, int n) {
  for (int i = 1; i < n; ++i) {
    int k = a[i], j = i - 1;
    while (j >= 0 && a[j] > k) { a[j + 1] = a[j]; --j; }
    a[j + 1] = k;
  }
}
int main(void) {
  int a[N];
  klee_make_symbolic(a, sizeof a, "a");
  insertion_sort(a, N);
  for (int i = 1; i < N; ++i) klee_assert(a[i - 1] <= a[i]);
  return 0;
}
