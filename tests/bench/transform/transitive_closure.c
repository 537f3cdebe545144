/* transitive_closure: all-pairs reachability of a directed graph given by its adjacency
 * matrix, by Warshall's algorithm: after round k, reach[i][j] tells whether j can be reached
 * from i through intermediate vertices below k + 1.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The N * N entries of the matrix are
 * symbolic (an entry that is not zero is an edge); the update of reach[i][j] is one conditional
 * branch at -O0, whose side that takes it sets the entry, so merging or transforming it gives
 * one path.
 *
 * Paper's input sizes: N = 3, 4, 5 (vertices).
 *   -DN=n      the number of vertices (default 3)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the update (the paper's SM config)
 */
#include <klee/klee.h>

#ifndef N
#define N 3
#endif

static void warshall(unsigned char reach[N][N]) {
  for (int k = 0; k < N; k++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
#ifdef MERGE
        klee_open_merge();
#endif
        /* i reaches k and k reaches j: one branch */
        if (reach[i][k] & reach[k][j])
          reach[i][j] = 1;
#ifdef MERGE
        klee_close_merge();
#endif
      }
}

int main(void) {
  unsigned char adj[N][N], reach[N][N];
  klee_make_symbolic(adj, sizeof adj, "adj");
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      reach[i][j] = adj[i][j] != 0;
  warshall(reach);
  int pairs = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      pairs += reach[i][j];
  return pairs;
}
