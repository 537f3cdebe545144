/* What the drivers share: their input, INPUT_SIZE symbolic bytes named "input" (a driver sets
 * its own default size before including this; -DINPUT_SIZE=N changes it), as a buffer or as a
 * NUL-terminated text. */
#ifndef CAIRN_DRIVER_H
#define CAIRN_DRIVER_H

#include <stddef.h>
#include <stdlib.h>

#include "cairn.h"

static inline void symbolic_input(void *buffer, size_t size) { klee_make_symbolic(buffer, size, "input"); }

static inline void symbolic_text(char *text, size_t size) {
  symbolic_input(text, size);
  text[size - 1] = 0;
}

/* A NUL-terminated text of symbolic length (the input of the state-merging benchmark's
 * drivers, tests/bench/quantified): its length n symbolic, n + 1 symbolic bytes, the last 0. */
static inline char *symbolic_length_text(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *text = malloc(n + 1);
  klee_make_symbolic(text, n + 1, "text");
  text[n] = 0;
  return text;
}

#endif
