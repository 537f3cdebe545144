// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=1 paths_partial=0 tests=1
// EXPECT-ERROR: ptr out-of-bounds 15
//
// NO-REPLAY: AddressSanitizer calls a range this large an unknown-crash (memcpy: a param-overlap)
// A huge copy between small buffers ends at the first byte past them, with no room taken first.
#include "cairn.h"
#include <string.h>

int main(void) {
  char a[16], b[16] = {0};
  unsigned long n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n > (1ul << 40));
  memmove(a, b, n);
  return a[0];
}
