/* What the drivers share: their input, INPUT_SIZE symbolic bytes named "input" (a driver sets
 * its own default size before including this; -DINPUT_SIZE=N changes it), as a buffer or as a
 * NUL-terminated text. */
#ifndef CAIRN_DRIVER_H
#define CAIRN_DRIVER_H

#include <stddef.h>

#include "cairn.h"

static inline void symbolic_input(void *buffer, size_t size) { klee_make_symbolic(buffer, size, "input"); }

static inline void symbolic_text(char *text, size_t size) {
  symbolic_input(text, size);
  text[size - 1] = 0;
}

#endif
