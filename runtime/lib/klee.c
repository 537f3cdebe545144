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

/* KLEE's floating-point value queries: one value of the bits, as the integer ones give it. */
CAIRN_RT float klee_get_valuef(float expr) {
  int32_t bits;
  __builtin_memcpy(&bits, &expr, sizeof bits);
  bits = klee_get_value_i32(bits);
  __builtin_memcpy(&expr, &bits, sizeof bits);
  return expr;
}

CAIRN_RT double klee_get_valued(double expr) {
  int64_t bits;
  __builtin_memcpy(&bits, &expr, sizeof bits);
  bits = klee_get_value_i64(bits);
  __builtin_memcpy(&expr, &bits, sizeof bits);
  return expr;
}

/* As KLEE: a fresh input below n; a path whose input is not ends silently. */
CAIRN_RT uintptr_t klee_choose(uintptr_t n) {
  uintptr_t x;
  klee_make_symbolic(&x, sizeof x, "klee_choose");
  if (x >= n)
    klee_silent_exit(0);
  return x;
}

/* errno lives in the libc model (libc-stdlib.c), as the program sees it. */
int *__errno_location(void);

CAIRN_RT int klee_get_errno(void) { return *__errno_location(); }
