// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=8 paths_partial=0 tests=5
// EXPECT-ERROR: ptr out-of-bounds 40
// EXPECT-ERROR: user fixed-object 42
// EXPECT-ERROR: user fixed-object 44
//
// klee_define_fixed_object: an object at the address the program names (device registers),
// zero at first, read and written like any other; klee_get_obj_size gives its size. The heap
// steps around a fixed object in its way (a 1 MiB one just past the engine's first objects, so
// the next large blocks would meet it). Paths: the value written to a register is 'A' or not
// (2); then on each, k == 0: a write one word past the registers; k == 1: an object meeting
// the registers; k == 2: an object in the null page; else nothing (8 paths; the second path to
// each error gets no test of its own).
#include <stdint.h>
#include <stdlib.h>

#include "cairn.h"

#define REGS 0x40001000u
#define AHEAD 0x20010000u

int main(void) {
  volatile uint32_t *regs = (volatile uint32_t *)(uintptr_t)REGS;
  klee_define_fixed_object((void *)regs, 16);
  klee_assert(klee_get_obj_size((void *)&regs[2]) == 16);
  klee_assert(regs[0] == 0);
  klee_assert(regs[3] == 0);
  klee_define_fixed_object((void *)(uintptr_t)AHEAD, 1 << 20);
  for (int n = 0; n < 4; n++) {
    char *block = malloc(1 << 16);
    klee_assert(block + (1 << 16) <= (char *)(uintptr_t)AHEAD || block >= (char *)(uintptr_t)AHEAD + (1 << 20));
  }
  uint32_t c;
  klee_make_symbolic(&c, sizeof c, "c");
  regs[1] = c;
  if (regs[1] == 'A')
    regs[2] = 1;
  int k = klee_int("k");
  if (k == 0)
    regs[4] = 1;
  else if (k == 1)
    klee_define_fixed_object((void *)(uintptr_t)(REGS + 8), 16);
  else if (k == 2)
    klee_define_fixed_object((void *)16, 4);
  return 0;
}
