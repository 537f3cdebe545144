// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// __builtin_object_size is llvm.objectsize: as in KLEE the size is unknown, (size_t)-1 for
// the maximum (type 0) and 0 for the minimum (type 2). __builtin_constant_p of a value only
// known at run time is llvm.is.constant, false. One symbolic branch: 2 paths.
#include "cairn.h"
#include <stddef.h>

static size_t most(char *p) { return __builtin_object_size(p, 0); }
static size_t least(char *p) { return __builtin_object_size(p, 2); }

int main(void) {
  char buf[8];
  klee_make_symbolic(buf, sizeof buf, "buf");
  klee_assert(most(buf) == (size_t)-1);
  klee_assert(least(buf) == 0);
  klee_assert(!__builtin_constant_p(buf[1]));
  if (buf[0] == 'a')
    return 1;
  return 0;
}
