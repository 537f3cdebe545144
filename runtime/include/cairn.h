/* cairn.h: what programs analysed by Cairn include.
 *
 * The klee_* functions keep KLEE's names and signatures, so programs written for KLEE compile
 * unchanged (klee.h and klee/klee.h include this header). During analysis the engine implements
 * the intrinsics itself; klee_range, klee_int, the SV-COMP functions and __assert_fail come from
 * the runtime bitcode, which is built on them. For `cairn replay`, the program is compiled
 * natively against this header and linked with libcairn-replay.a, which implements the same
 * functions by reading the inputs of a .ktest file.
 */
#ifndef CAIRN_H
#define CAIRN_H

#include <stddef.h>
#include <stdint.h>

/* glibc's __THROW, so the declaration of __assert_fail matches <assert.h>'s. */
#ifdef __cplusplus
extern "C" {
#if __cplusplus >= 201103L
#define CAIRN_NOTHROW noexcept(true)
#else
#define CAIRN_NOTHROW throw()
#endif
#else
#define CAIRN_NOTHROW __attribute__((__nothrow__))
#endif

/* --- KLEE intrinsics ------------------------------------------------------------------------- */

/* Make the nbytes at addr symbolic: one input of the test, called name. The memory must lie
 * inside one object. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* Add cond != 0 to the path condition. An assumption that cannot hold is an error. */
void klee_assume(uintptr_t cond);

/* A fresh symbolic int in [start, end). When end == start + 1 no input is made. */
int klee_range(int start, int end, const char *name);

/* A fresh symbolic int. */
int klee_int(const char *name);

/* End the path as an error (type "abort"). */
__attribute__((__noreturn__)) void klee_abort(void);

/* End the path without a test and without an error. */
__attribute__((__noreturn__)) void klee_silent_exit(int status);

/* End the path with an error. suffix names its type as KLEE does ("assert.err", "user.err",
 * ...); a null file or a zero line means "where the call came from in the program". */
__attribute__((__noreturn__)) void klee_report_error(const char *file, int line,
                                                     const char *message, const char *suffix);

/* Non-zero when n depends on a symbolic input. */
unsigned klee_is_symbolic(uintptr_t n);

/* One concrete value the expression can take on this path (the path is not constrained). */
int32_t klee_get_value_i32(int32_t expr);
int64_t klee_get_value_i64(int64_t expr);
long klee_get_valuel(long expr);
long long klee_get_valuell(long long expr);

/* The same for floating-point values. */
float klee_get_valuef(float expr);
double klee_get_valued(double expr);

/* A fresh input below n (paths where it is not end silently). */
uintptr_t klee_choose(uintptr_t n);

/* 0 under analysis, 1 when a test is replayed natively. */
int klee_is_replay(void);

/* A message in the run's log and on stderr (klee_warning_once: once per call site). */
void klee_warning(const char *message);
void klee_warning_once(const char *message);

/* The message and the value as the path has it (the expression when it is symbolic), in the
 * run's log. */
void klee_print_expr(const char *message, ...);

/* A hint for the values chosen for object's test (accepted, currently ignored). */
void klee_prefer_cex(void *object, uintptr_t condition);

/* The paths that leave the region between these calls may be merged. */
void klee_open_merge(void);
void klee_close_merge(void);

/* KLEE's hints for test values and for its own bookkeeping: accepted, without effect here. */
void klee_posix_prefer_cex(void *object, uintptr_t condition);
void klee_mark_global(void *object);

/* Forking on (non-zero, the default) or off for this path: while off, a branch whose both sides
 * are feasible follows its true side and adds its condition, without a new path. */
void klee_set_forking(unsigned enable);

/* From now on, on this path, calls to the function named fn go to the function named alias
 * (defined in the program, of the same type); the same name twice takes the alias back. Calls
 * through function pointers are not redirected. */
void klee_alias_function(const char *fn, const char *alias);

/* The call stack, innermost first (function, file:line), in the run's log. */
void klee_stack_trace(void);

/* A memory error, as an access would have, when [address, address + size) is not inside one
 * object; nothing otherwise. */
void klee_check_memory_access(const void *address, size_t size);

/* An object of nbytes bytes, zero at first, at the address given (memory-mapped device
 * registers and the like). It must not meet another object: an error otherwise. */
void klee_define_fixed_object(void *addr, size_t nbytes);

/* The size of the object ptr points into (a memory error when it points into none). */
size_t klee_get_obj_size(void *ptr);

/* The value of errno on this path. */
int klee_get_errno(void);

/* The name and the value, or the range of values the path allows, in the run's log. */
void klee_print_range(const char *name, int arg);

/* The libc's assertion hook; klee_assert reports through it like assert() does. glibc's takes
 * the line as unsigned, musl's (--libc full, cairn cc) as int. */
#ifdef __GLIBC__
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function) CAIRN_NOTHROW __attribute__((__noreturn__));
#else
void __assert_fail(const char *assertion, const char *file, int line,
                   const char *function) CAIRN_NOTHROW __attribute__((__noreturn__));
#endif

#define klee_assert(expr)                                                                          \
  ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))

/* --- SV-COMP / Test-Comp ------------------------------------------------------------------------
 * Each __VERIFIER_nondet_T returns a fresh symbolic value, an input named after the function. */

int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
char __VERIFIER_nondet_char(void);
unsigned char __VERIFIER_nondet_uchar(void);
short __VERIFIER_nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
#ifdef __cplusplus
bool __VERIFIER_nondet_bool(void);
bool __VERIFIER_nondet__Bool(void);
#else
_Bool __VERIFIER_nondet_bool(void);
_Bool __VERIFIER_nondet__Bool(void);
#endif
void *__VERIFIER_nondet_pointer(void);
size_t __VERIFIER_nondet_size_t(void);
float __VERIFIER_nondet_float(void);
double __VERIFIER_nondet_double(void);

/* Paths on which cond is 0 are dropped silently (SV-COMP semantics: not an error). */
void __VERIFIER_assume(int cond);

/* Reaching either is the error SV-COMP's reachability property asks about (type "assert").
 * reach_error is not declared noreturn: tasks often define their own, and some of those return. */
void reach_error(void);
__attribute__((__noreturn__)) void __VERIFIER_error(void);

#ifdef __cplusplus
}
#endif

#endif /* CAIRN_H */
