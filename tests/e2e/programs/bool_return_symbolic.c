// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// A function returning a symbolic bool keeps it in an i1 slot: stored and loaded as one bit
// in a byte (coreutils expr's nextarg). Paths, from strcmp against "+": the argument is empty,
// starts with another character, is "+" and more, or is "+".
#include <stdbool.h>
#include <string.h>
#include "cairn.h"
static char const **args;
static bool nextarg(char const *str) {
  if (*args == NULL) return false;
  bool r = strcmp(*args, str) == 0;
  args += r;
  return r;
}
int main(void) {
  char a[3]; klee_make_symbolic(a, 3, "a"); a[2] = 0;
  char const *v[2] = {a, NULL};
  args = v;
  return nextarg("+");
}
