// CAIRN-ARGS: --search dfs --libc full --all-tests --sym-args 0 2 2
// EXPECT: paths_completed=7 paths_partial=0 tests=7
//
// --sym-args 0 2 2: between none and two arguments of up to two characters. The count forks
// three ways (n_args 0, 1, 2); with an argument, its first two characters decide three paths
// each (not "-", "-" then not "x", "-x"), and argc tells the last two apart without a fork.
#include <string.h>

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == '-') {
    if (argv[1][1] == 'x')
      return argc == 3 ? 3 : 2;
    return 1;
  }
  return 0;
}
