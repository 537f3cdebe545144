// CAIRN-ARGS: --search dfs --cflag -O1
// EXPECT: paths_completed=9 paths_partial=0 tests=9
// EXPECT-ERROR: assert assertion-failure 15
//
// From -O1 on, clang turns memcmp(...) != 0 into a call to bcmp, which the runtime provides: its
// byte loop forks at each of the 8 bytes (8 paths return 1), and the ninth path is the password.
#include "cairn.h"
#include <string.h>

int main(void) {
  char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  if (memcmp(in, "password", sizeof in) != 0)
    return 1;
  klee_assert(0);
  return 0;
}
