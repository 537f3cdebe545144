/* glibc's assertion hook (assert() and klee_assert expand to a call of it). Shared by the bitcode
 * runtime and libcairn-replay.a. */
#include "runtime.h"

CAIRN_RT void __assert_fail(const char *assertion, const char *file, unsigned int line,
                            const char *function) {
  (void)function;
  klee_report_error(file, (int)line, assertion ? assertion : "assertion failed", "assert.err");
}
