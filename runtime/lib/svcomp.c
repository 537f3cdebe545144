/* SV-COMP / Test-Comp functions on top of the klee_* intrinsics.
 * Compiled both to bitcode (for the engine) and natively (into libcairn-replay.a), so a test
 * replays through exactly the same code that produced it. */
#include "runtime.h"

/* A constraint on fresh inputs that the analysis can always satisfy: natively, a test whose
 * inputs break it does not belong to this program (the replay diverged, not a user error). */
#ifdef CAIRN_NATIVE
#include "replay.h"
#define CAIRN_ASSUME_INPUT(cond, what)                                                             \
  ((cond) ? (void)0 : cairn_replay_diverged(what))
#else
#define CAIRN_ASSUME_INPUT(cond, what) klee_assume(cond)
#endif

#define CAIRN_NONDET(type, suffix)                                                                 \
  CAIRN_RT type __VERIFIER_nondet_##suffix(void) {                                                 \
    type x;                                                                                        \
    klee_make_symbolic(&x, sizeof x, "__VERIFIER_nondet_" #suffix);                                \
    return x;                                                                                      \
  }

CAIRN_NONDET(int, int)
CAIRN_NONDET(unsigned int, uint)
CAIRN_NONDET(char, char)
CAIRN_NONDET(unsigned char, uchar)
CAIRN_NONDET(short, short)
CAIRN_NONDET(unsigned short, ushort)
CAIRN_NONDET(long, long)
CAIRN_NONDET(unsigned long, ulong)
CAIRN_NONDET(void *, pointer)
CAIRN_NONDET(size_t, size_t)
CAIRN_NONDET(float, float)
CAIRN_NONDET(double, double)

/* A _Bool object holding anything but 0 or 1 is undefined behaviour: the input is one byte
 * constrained to {0, 1}. */
#define CAIRN_NONDET_BOOL(suffix)                                                                  \
  CAIRN_RT _Bool __VERIFIER_nondet_##suffix(void) {                                                \
    unsigned char x;                                                                               \
    klee_make_symbolic(&x, sizeof x, "__VERIFIER_nondet_" #suffix);                                \
    CAIRN_ASSUME_INPUT(x <= 1, "__VERIFIER_nondet_" #suffix " is neither 0 nor 1");                \
    return x != 0;                                                                                 \
  }

CAIRN_NONDET_BOOL(bool)
CAIRN_NONDET_BOOL(_Bool)

/* SV-COMP's assume drops the paths on which the condition is false; it is not an error even when
 * the condition is provably false (klee_assume would report that). Under analysis the false side
 * ends silently and the other side continues with cond in its path condition. A replayed test
 * followed a path on which cond held, so natively a false cond means the replay diverged
 * (exit status 4). */
CAIRN_RT void __VERIFIER_assume(int cond) {
#ifdef CAIRN_NATIVE
  if (!cond)
    cairn_replay_diverged("__VERIFIER_assume does not hold");
#else
  if (!cond)
    klee_silent_exit(0);
#endif
}

/* No file or line: the engine places the error at the call in the program. */
CAIRN_RT void reach_error(void) {
  klee_report_error(0, 0, "reach_error", "assert.err");
}

CAIRN_RT void __VERIFIER_error(void) {
  klee_report_error(0, 0, "reach_error", "assert.err");
}
