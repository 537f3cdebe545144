// CAIRN-ARGS: --search dfs --size-model symbolic --capacity 3
// EXPECT: paths_completed=5 paths_partial=1 tests=6
//
// Figure 1.7 of the symbolic-size chapter: a buffer of symbolic size n and a loop over it that
// may break early. With capacity 3, forking lazily explores the chapter's five paths (n = 0, 1,
// 2, 3 running to the end, and the break); merging leaves one state per loop exit (the break
// and the loop condition), so two paths. Eager forking fixes n before the loop, so the break
// happens once per n >= 1: seven paths. The concrete model: at the end.
#include "cairn.h"
#include <stdlib.h>

int main(void) {
  size_t n;
  int z;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&z, sizeof z, "z");
  char *p = malloc(n);
  for (int i = 0; i < n; i++) {
    if (z == 0)
      break;
    if (i > 0)
      p[i] = i;
  }
  return 0;
}

// CAIRN-VARIANT: eager --search dfs --size-model symbolic --capacity 3 --size-mode eager
// EXPECT@eager: paths_completed=7 paths_partial=1 tests=8
// CAIRN-VARIANT: merge --search dfs --size-model symbolic --capacity 3 --size-mode merge
// EXPECT@merge: paths_completed=2 paths_partial=1 tests=3
// CAIRN-VARIANT: merge-opt --search dfs --size-model symbolic --capacity 3 --size-mode merge-opt
// EXPECT@merge-opt: paths_completed=2 paths_partial=1 tests=3
// CAIRN-VARIANT: merge-bfs --search bfs --size-model symbolic --capacity 3 --size-mode merge-opt
// EXPECT@merge-bfs: paths_completed=2 paths_partial=1 tests=3
// CAIRN-VARIANT: concrete --search dfs
// EXPECT@concrete: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR@concrete: model symbolic-size 17
// EXPECT-ERROR@concrete: ptr null 22
// The concrete model (KLEE's procedure): n is free, so its value is the solver's 0 (nothing to
// halve) and the path forks on n == 0: the loop does not run (1 path). The other side forks on
// n > 2^31: p is NULL, the z == 0 break ends one path and z != 0 writes p[1]: a null pointer
// error (2 paths); the sizes left (1 to 2^31) end with the model error at the malloc (1 path).
// Every symbolic-size mode also has one partial path: n > 3, above the capacity, is not
// explored; the allocation forks on n <= 3 and the other side ends there.
