/* bitonic_sort: sorts an int array in ascending order with Batcher's bitonic sorting network
 * (Batcher 1968), in its iterative form: stages k = 2, 4, ..., N build bitonic runs of length k,
 * and steps j = k/2, ..., 1 compare-exchange the elements j apart in the direction of their run.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The elements are symbolic; the
 * compare-exchange is one conditional branch at -O0 (the direction is concrete: it depends on
 * the index only), and the network's shape is fixed, so merging or transforming the exchange
 * leaves one path whose values are if-then-else terms (the loop-carried case of the paper).
 *
 * Paper's input sizes: N = 4, 8, 16 (elements; a power of two).
 *   -DN=n      the length (default 4)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the exchange (the paper's SM config)
 *   -DVERIFY   check the post-condition afterwards: the array is ascending
 */
#include <klee/klee.h>
#include <assert.h>

#ifndef N
#define N 4
#endif

_Static_assert(N > 0 && (N & (N - 1)) == 0, "bitonic sort needs a power of two");

static void bitonic_sort(int *a) {
  for (int k = 2; k <= N; k *= 2)
    for (int j = k / 2; j > 0; j /= 2)
      for (int i = 0; i < N; i++) {
        int l = i ^ j;
        if (l > i) {
          int up = (i & k) == 0; /* this run is sorted ascending */
#ifdef MERGE
          klee_open_merge();
#endif
          /* out of order for this run's direction: one branch */
          if ((a[i] > a[l]) == up) {
            int t = a[i];
            a[i] = a[l];
            a[l] = t;
          }
#ifdef MERGE
          klee_close_merge();
#endif
        }
      }
}

int main(void) {
  int a[N];
  klee_make_symbolic(a, sizeof a, "a");
  bitonic_sort(a);
#ifdef VERIFY
  for (int i = 0; i + 1 < N; i++)
    assert(a[i] <= a[i + 1]);
#endif
  return 0;
}
