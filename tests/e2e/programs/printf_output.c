// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// The program's own output (printf, puts, putchar, snprintf) with concrete and symbolic
// arguments, including a line that looks like a summary, which must not confuse whoever reads
// the JSON summary. One branch: 2 paths, no error.
#include "cairn.h"
#include <stdio.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  printf("start %d %s %c %u %x\n", 42, "str", 'z', 7u, 255u);
  printf("{\"paths_completed\": 999, \"paths_partial\": 999, \"tests\": 999, \"errors\": []}\n");
  puts("a line");
  putchar('c');
  putchar('\n');
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%d-%s", 7, "ab");
  klee_assert(n == 4);
  klee_assert(buf[1] == '-');
  klee_assert(buf[4] == 0);
  if (x > 0)
    printf("positive: %d\n", x);
  else
    printf("not positive\n");
  return 0;
}
