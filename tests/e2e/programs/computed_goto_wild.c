// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr invalid-function-pointer 20
//
// A computed goto to an address that is none of the function's labels jumps into the wild:
// an error, named as a call through a bad function pointer is (natively the processor faults
// fetching there). i < 2 picks one of two labels (2 paths, one per label); otherwise the
// target is a made-up address (1 error path).
#include "cairn.h"

#include <stdint.h>

int main(void) {
  static void *targets[] = {&&even, &&odd};
  unsigned char i;
  klee_make_symbolic(&i, sizeof i, "i");
  void *t = (void *)(uintptr_t)0x1234;
  if (i < 2)
    t = targets[i];
  goto *t;
even:
  return 0;
odd:
  return 1;
}
