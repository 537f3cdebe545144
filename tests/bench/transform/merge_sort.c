/* merge_sort: sorts an int array in ascending order with the recursive top-down merge sort:
 * sort each half, then merge the two sorted halves through temporary copies.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The elements are symbolic; the merge's
 * comparison is one conditional branch at -O0, and plain symbolic execution has one path per
 * order of the elements (N!: 120 at N = 5). The indices into the halves advance on one side of
 * that branch only, so once it is merged they are symbolic and every later read is at a
 * symbolic address: the case where the paper's transform does not apply and merging is slower.
 *
 * Paper's input sizes: N = 5, 10, 15 (elements).
 *   -DN=n      the length (default 5)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the comparison (the paper's SM config)
 *   -DVERIFY   check the post-condition afterwards: the array is ascending
 */
#include <klee/klee.h>
#include <assert.h>

#ifndef N
#define N 5
#endif

/* Merges the sorted a[lo, mid) and a[mid, hi). */
static void merge(int *a, int lo, int mid, int hi) {
  int left[N], right[N];
  int n1 = mid - lo, n2 = hi - mid;
  for (int i = 0; i < n1; i++)
    left[i] = a[lo + i];
  for (int j = 0; j < n2; j++)
    right[j] = a[mid + j];
  int i = 0, j = 0, k = lo;
  while (i < n1 && j < n2) {
#ifdef MERGE
    klee_open_merge();
#endif
    if (left[i] <= right[j])
      a[k++] = left[i++];
    else
      a[k++] = right[j++];
#ifdef MERGE
    klee_close_merge();
#endif
  }
  while (i < n1)
    a[k++] = left[i++];
  while (j < n2)
    a[k++] = right[j++];
}

static void merge_sort(int *a, int lo, int hi) {
  if (hi - lo < 2)
    return;
  int mid = lo + (hi - lo) / 2;
  merge_sort(a, lo, mid);
  merge_sort(a, mid, hi);
  merge(a, lo, mid, hi);
}

int main(void) {
  int a[N];
  klee_make_symbolic(a, sizeof a, "a");
  merge_sort(a, 0, N);
#ifdef VERIFY
  for (int i = 0; i + 1 < N; i++)
    assert(a[i] <= a[i + 1]);
#endif
  return 0;
}
