/* floyd_warshall: all-pairs shortest path lengths of a complete directed graph by the
 * Floyd-Warshall algorithm: after round k, dist[i][j] is the length of the shortest path from
 * i to j through intermediate vertices below k + 1.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The N * (N - 1) off-diagonal edge
 * weights are symbolic bytes (non-negative, so there is no negative cycle; lengths are ints, so
 * no sum overflows); the relaxation is one conditional branch at -O0, its taken side a store,
 * so merging or transforming it gives one path.
 *
 * Paper's input sizes: N = 3, 4, 5 (vertices).
 *   -DN=n      the number of vertices (default 3)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the relaxation (the paper's SM config)
 */
#include <klee/klee.h>

#ifndef N
#define N 3
#endif

static void floyd_warshall(int dist[N][N]) {
  for (int k = 0; k < N; k++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        int through = dist[i][k] + dist[k][j];
#ifdef MERGE
        klee_open_merge();
#endif
        if (through < dist[i][j])
          dist[i][j] = through;
#ifdef MERGE
        klee_close_merge();
#endif
      }
}

int main(void) {
  unsigned char w[N][N];
  int dist[N][N];
  klee_make_symbolic(w, sizeof w, "weights");
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      dist[i][j] = i == j ? 0 : w[i][j];
  floyd_warshall(dist);
  return dist[0][N - 1];
}
