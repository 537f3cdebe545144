// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=1 paths_partial=0 tests=1
//
// main's third parameter is the environment, as in a native run (cairn run's own, as in KLEE):
// not NULL, NULL-terminated, each entry NAME=VALUE. Reading it is no error: one path.
#include "cairn.h"
#include <assert.h>

int main(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  assert(envp != 0);
  unsigned n = 0, names = 0;
  for (; envp[n]; n++)
    for (const char *c = envp[n]; *c; c++)
      if (*c == '=') {
        names++;
        break;
      }
  assert(names == n);
  return 0;
}
