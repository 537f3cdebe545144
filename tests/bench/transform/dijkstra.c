/* dijkstra: the length of a shortest path from vertex 0 to vertex N - 1 of a complete
 * directed graph with non-negative edge weights, by Dijkstra's algorithm in its O(N^2) form on
 * the weight matrix: each round settles the unsettled vertex nearest to the source, then relaxes
 * the edges leaving it.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The N * (N - 1) off-diagonal edge
 * weights are symbolic bytes. Each of the two loops over the vertices has one symbolic test,
 * written as one conditional branch at -O0 (the "not settled" test is folded in with a bitwise
 * and). Merged or transformed, the settled vertex becomes an if-then-else over the weights, and
 * the search runs on one path.
 *
 * Paper's input sizes: N = 4, 5, 6 (vertices).
 *   -DN=n      the number of vertices (default 4)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around each test (the paper's SM config)
 */
#include <klee/klee.h>

#ifndef N
#define N 4
#endif

#define INF 100000 /* above any path's length */

static int dijkstra(unsigned char w[N][N], int source, int target) {
  int dist[N], done[N];
  for (int v = 0; v < N; v++) {
    dist[v] = INF;
    done[v] = 0;
  }
  dist[source] = 0;
  for (int round = 0; round < N; round++) {
    /* the nearest vertex not settled yet */
    int u = 0, best = INF + 1;
    for (int v = 0; v < N; v++) {
#ifdef MERGE
      klee_open_merge();
#endif
      if (!done[v] & (dist[v] < best)) {
        best = dist[v];
        u = v;
      }
#ifdef MERGE
      klee_close_merge();
#endif
    }
    done[u] = 1;
    /* the edges leaving u may shorten the paths to the others */
    for (int v = 0; v < N; v++) {
      int through = dist[u] + w[u][v];
#ifdef MERGE
      klee_open_merge();
#endif
      if (!done[v] & (through < dist[v]))
        dist[v] = through;
#ifdef MERGE
      klee_close_merge();
#endif
    }
  }
  return dist[target];
}

int main(void) {
  unsigned char w[N][N];
  klee_make_symbolic(w, sizeof w, "weights");
  return dijkstra(w, 0, N - 1) & 0xff;
}
