// Forking with many live objects: OBJECTS heap blocks stay allocated while 10 symbolic
// branches fork 1,023 times, and each of the 1,024 paths writes one block. What a fork costs
// shows in the wall time as OBJECTS grows:
//   cairn-bench-engine build/client/cairn tests/bench/programs/live-objects.c \
//       --config 10='--cflag -DOBJECTS=10' --config 10000='--cflag -DOBJECTS=10000'
#include "cairn.h"

#include <stdlib.h>

#ifndef OBJECTS
#define OBJECTS 1000
#endif
#define BRANCHES 10

static char *blocks[OBJECTS];

int main(void) {
  for (int i = 0; i < OBJECTS; i++)
    blocks[i] = malloc(16);
  unsigned char in[BRANCHES];
  klee_make_symbolic(in, sizeof in, "in");
  unsigned k = 0;
  for (int i = 0; i < BRANCHES; i++) {
    if (in[i] > 100)
      k = 2 * k + 1;
    else
      k = 2 * k;
  }
  blocks[k % OBJECTS][0] = 1;
  return blocks[k % OBJECTS][0];
}
