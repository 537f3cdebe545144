// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: ptr out-of-bounds 46
//
// klee_get_obj_size (the size of the object a pointer points into: a global, a local, a heap
// block, through a symbolic pointer too; a pointer into none is an access error),
// klee_get_errno (errno as the libc model sets it), klee_stack_trace and klee_print_range (the
// run's log), klee_mark_global and klee_posix_prefer_cex (accepted). Paths: i < 0; 0 <= i < 10;
// i >= 10, which forks on i == 10 (the one-past-the-end pointer's error) and not.
#include <errno.h>
#include <stdlib.h>

#include "cairn.h"

int table[10];

static int depth(int n) {
  if (n == 0) {
    klee_stack_trace();
    return 0;
  }
  return depth(n - 1) + 1;
}

int main(void) {
  char local[24];
  char *heap = malloc(40);
  klee_assert(klee_get_obj_size(table) == sizeof table);
  klee_assert(klee_get_obj_size(&table[3]) == sizeof table);
  klee_assert(klee_get_obj_size(local) == sizeof local);
  klee_assert(klee_get_obj_size(heap + 39) == 40);
  errno = 0;
  klee_assert(klee_get_errno() == 0);
  strtol("99999999999999999999", 0, 10);
  klee_assert(klee_get_errno() == ERANGE);
  klee_assert(depth(2) == 2);
  klee_mark_global(table);
  int i = klee_int("i");
  klee_posix_prefer_cex(&i, i == 3);
  klee_print_range("i", i);
  if (i >= 0 && i < 10) {
    klee_print_range("i", i);
    klee_assert(klee_get_obj_size(&table[i]) == sizeof table);
    klee_print_range("i", 7);
  } else if (i == 10) {
    klee_get_obj_size(heap + 40);
  }
  return 0;
}
