/* prim: the weight of a minimum spanning tree of a complete undirected graph, by Prim's
 * algorithm on its weight matrix (the O(N^2) form): the tree grows from vertex 0; each round
 * takes the outside vertex with the cheapest edge into the tree, then lowers the other outside
 * vertices' keys through it.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2. The N * (N - 1) / 2 edge weights are
 * symbolic bytes (the matrix is symmetric, the diagonal unused). Each of the two loops over the
 * vertices has one symbolic test, written as one conditional branch at -O0 (the "outside the
 * tree" test is folded in with a bitwise and): plain symbolic execution forks on every
 * comparison of keys and weights; merged or transformed, the chosen vertex becomes an
 * if-then-else over the weights and the tree is built on one path.
 *
 * Paper's input sizes: N = 4, 5, 6 (vertices).
 *   -DN=n      the number of vertices (default 4)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around each test (the paper's SM config)
 */
#include <klee/klee.h>

#ifndef N
#define N 4
#endif

#define INF 1000 /* above any weight */

static unsigned prim(unsigned char w[N][N]) {
  unsigned key[N];
  int in_tree[N], parent[N];
  for (int v = 0; v < N; v++) {
    key[v] = INF;
    in_tree[v] = 0;
    parent[v] = 0;
  }
  key[0] = 0;
  for (int round = 0; round < N; round++) {
    /* the outside vertex with the cheapest connection to the tree */
    int u = 0;
    unsigned best = INF + 1;
    for (int v = 0; v < N; v++) {
#ifdef MERGE
      klee_open_merge();
#endif
      if (!in_tree[v] & (key[v] < best)) {
        best = key[v];
        u = v;
      }
#ifdef MERGE
      klee_close_merge();
#endif
    }
    in_tree[u] = 1;
    /* the edges from u may connect the others more cheaply */
    for (int v = 0; v < N; v++) {
#ifdef MERGE
      klee_open_merge();
#endif
      if (!in_tree[v] & (w[u][v] < key[v])) {
        key[v] = w[u][v];
        parent[v] = u;
      }
#ifdef MERGE
      klee_close_merge();
#endif
    }
  }
  unsigned total = 0;
  for (int v = 1; v < N; v++)
    total += w[parent[v]][v];
  return total;
}

int main(void) {
  unsigned char w[N][N];
  unsigned char upper[N * (N - 1) / 2];
  klee_make_symbolic(upper, sizeof upper, "weights");
  int e = 0;
  for (int i = 0; i < N; i++) {
    w[i][i] = 0;
    for (int j = i + 1; j < N; j++) {
      w[i][j] = upper[e];
      w[j][i] = upper[e];
      e++;
    }
  }
  return (int)(prim(w) & 0xff);
}
