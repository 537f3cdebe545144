/* connected_components: labels the connected components of an undirected graph given by its
 * adjacency matrix, in the manner of Shiloach and Vishkin (sequentially): every vertex holds
 * the label of a vertex of its component, and rounds of hooking and pointer jumping repeat
 * until nothing changes. Hooking: over every edge (u, v), the end with the larger label takes
 * the other's label (here any vertex hooks, not only a root, as in the label-propagation
 * variants of the algorithm, so that the edge's side writes only its own two entries).
 * Pointer jumping: every vertex takes its label's label (D[i] = D[D[i]]). At the end D[v] is
 * the smallest vertex of v's component, and the result is the number of components.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. All N * N entries of the matrix are
 * symbolic (an entry u,v that is not zero is an edge between u and v, whichever way round);
 * the test of the entry is one conditional branch at -O0, so plain symbolic execution forks
 * once per entry: 2^(N*N) paths. Once the entries are merged (or transformed into selects) the
 * labels are symbolic, and the number of rounds until nothing changes depends on them.
 *
 * Paper's input sizes: N = 3, 4, 5 (vertices).
 *   -DN=n      the number of vertices (default 3)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the edge test and around the jump
 *              (the paper's SM config)
 */
#include <klee/klee.h>

#ifndef N
#define N 3
#endif

static int components(unsigned char adj[N][N], int *D) {
  for (int i = 0; i < N; i++)
    D[i] = i;
  int changed = 1;
  while (changed) {
    changed = 0;
    /* hooking: over each edge, the larger label gives way to the smaller */
    for (int u = 0; u < N; u++)
      for (int v = 0; v < N; v++) {
#ifdef MERGE
        klee_open_merge();
#endif
        if (adj[u][v]) {
          int du = D[u], dv = D[v];
          if (dv < du) {
            D[u] = dv;
            changed = 1;
          }
          if (du < dv) {
            D[v] = du;
            changed = 1;
          }
        }
#ifdef MERGE
        klee_close_merge();
#endif
      }
    /* pointer jumping: every vertex moves up to its label's label */
    for (int i = 0; i < N; i++) {
      int up = D[D[i]];
#ifdef MERGE
      klee_open_merge();
#endif
      if (up != D[i]) {
        D[i] = up;
        changed = 1;
      }
#ifdef MERGE
      klee_close_merge();
#endif
    }
  }
  int count = 0;
  for (int i = 0; i < N; i++)
    count += D[i] == i;
  return count;
}

int main(void) {
  unsigned char adj[N][N];
  int D[N];
  klee_make_symbolic(adj, sizeof adj, "adj");
  return components(adj, D);
}
