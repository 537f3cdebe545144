/* The klee_* functions that are not intrinsics: built on klee_make_symbolic and klee_assume.
 * Bitcode only; libcairn-replay.a implements them natively with the same inputs (replay.c). */
#include "runtime.h"

CAIRN_RT int klee_int(const char *name) {
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  return x;
}

/* As KLEE: [start, end), no input when the range has one value. One constraint, one solver
 * question: x - start < end - start, unsigned. */
CAIRN_RT int klee_range(int start, int end, const char *name) {
  int x;
  if (start >= end)
    klee_report_error(0, 0, "invalid klee_range: start >= end", "user.err");
  if (start + 1 == end)
    return start;
  klee_make_symbolic(&x, sizeof x, name);
  if (start == 0)
    klee_assume((unsigned)x < (unsigned)end);
  else
    klee_assume((unsigned)x - (unsigned)start < (unsigned)end - (unsigned)start);
  return x;
}

CAIRN_RT long long klee_get_valuell(long long expr) {
  return (long long)klee_get_value_i64((int64_t)expr);
}
