// CAIRN-ARGS: --search dfs --check-leaks
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// --check-leaks: blocks still allocated at main's return are no leak while a global reaches
// them: directly, through a pointer into the middle of a block, and through another block.
// (They are what --check-memcleanup reports: memcleanup_global.c.) Paths: c == 1 or not: 2.
#include "cairn.h"
#include <stdlib.h>

struct pair {
  char *first;
  char *second;
};

static struct pair *table;
static char *middle;

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  table = malloc(sizeof *table);
  table->first = malloc(4);
  table->second = malloc(4);
  char *buffer = malloc(32);
  middle = buffer + 12;
  if (c == 1) {
    free(table->second);
    table->second = 0;
  }
  return 0;
}
