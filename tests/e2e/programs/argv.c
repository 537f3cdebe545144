// CAIRN-ARGS: --search dfs -- hello 42
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Program arguments given after "--" reach main's argc/argv (argv[0] is the program, argv[argc]
// is null). One branch on a symbolic value against an argument: 2 paths.
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  klee_assert(argc == 3);
  klee_assert(argv[0] != 0);
  klee_assert(strcmp(argv[1], "hello") == 0);
  klee_assert(atoi(argv[2]) == 42);
  klee_assert(argv[3] == 0);
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == atoi(argv[2]))
    return 1;
  return 0;
}
