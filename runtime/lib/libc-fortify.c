/* glibc's fortified string functions, which clang calls under -D_FORTIFY_SOURCE when it knows
 * the destination's size: each checks the size first, as glibc's does, and fails as glibc's
 * __chk_fail does (the program aborts, "buffer overflow detected"); otherwise it is the plain
 * function, whose accesses the engine checks as ever. Looking for a string's end, they read no
 * further than the destination's size can tell the overflow.
 *
 * Also compiled natively into libcairn-replay.a, where `cairn replay` links the program's calls
 * of them here (--wrap): glibc's versions copy with unchecked internal calls, and the sanitizer
 * replaces some with versions that skip the size check, so a replayed test would not end as
 * the analysed path did. Natively the plain functions are the sanitizer's checked ones. */
#include <stddef.h>

#include "runtime.h"

#ifdef CAIRN_NATIVE
#define CAIRN_FORTIFIED(name) __wrap_##name
#else
#define CAIRN_FORTIFIED(name) name
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
size_t strnlen(const char *s, size_t max);
char *strncpy(char *dst, const char *src, size_t n);

__attribute__((__noreturn__)) void __chk_fail(void);

#ifndef CAIRN_NATIVE
/* Natively glibc's: "*** buffer overflow detected ***: terminated", then abort(). */
CAIRN_RT void __chk_fail(void) { klee_report_error(0, 0, "buffer overflow detected", "abort.err"); }
#endif

void *CAIRN_FORTIFIED(__memcpy_chk)(void *dst, const void *src, size_t n, size_t dstlen);
void *CAIRN_FORTIFIED(__memmove_chk)(void *dst, const void *src, size_t n, size_t dstlen);
void *CAIRN_FORTIFIED(__memset_chk)(void *dst, int c, size_t n, size_t dstlen);
char *CAIRN_FORTIFIED(__strcpy_chk)(char *dst, const char *src, size_t dstlen);
char *CAIRN_FORTIFIED(__strncpy_chk)(char *dst, const char *src, size_t n, size_t dstlen);
char *CAIRN_FORTIFIED(__strcat_chk)(char *dst, const char *src, size_t dstlen);
char *CAIRN_FORTIFIED(__strncat_chk)(char *dst, const char *src, size_t n, size_t dstlen);

CAIRN_RT void *CAIRN_FORTIFIED(__memcpy_chk)(void *dst, const void *src, size_t n, size_t dstlen) {
  if (dstlen < n)
    __chk_fail();
  return memcpy(dst, src, n);
}

CAIRN_RT void *CAIRN_FORTIFIED(__memmove_chk)(void *dst, const void *src, size_t n, size_t dstlen) {
  if (dstlen < n)
    __chk_fail();
  return memmove(dst, src, n);
}

CAIRN_RT void *CAIRN_FORTIFIED(__memset_chk)(void *dst, int c, size_t n, size_t dstlen) {
  if (dstlen < n)
    __chk_fail();
  return memset(dst, c, n);
}

/* The source with its NUL must fit. */
CAIRN_RT char *CAIRN_FORTIFIED(__strcpy_chk)(char *dst, const char *src, size_t dstlen) {
  size_t n = strnlen(src, dstlen);
  if (n == dstlen)
    __chk_fail();
  return (char *)memcpy(dst, src, n + 1);
}

/* All n bytes are written (the source's, then NULs): n must fit. */
CAIRN_RT char *CAIRN_FORTIFIED(__strncpy_chk)(char *dst, const char *src, size_t n, size_t dstlen) {
  if (dstlen < n)
    __chk_fail();
  return strncpy(dst, src, n);
}

/* The destination's string must end within it, and the source with its NUL fit after it. */
CAIRN_RT char *CAIRN_FORTIFIED(__strcat_chk)(char *dst, const char *src, size_t dstlen) {
  size_t end = strnlen(dst, dstlen);
  if (end == dstlen)
    __chk_fail();
  size_t room = dstlen - end, n = strnlen(src, room);
  if (n == room)
    __chk_fail();
  memcpy(dst + end, src, n + 1);
  return dst;
}

/* As strcat, of at most n bytes of the source, and a NUL after them. */
CAIRN_RT char *CAIRN_FORTIFIED(__strncat_chk)(char *dst, const char *src, size_t n, size_t dstlen) {
  size_t end = strnlen(dst, dstlen);
  if (end == dstlen)
    __chk_fail();
  size_t room = dstlen - end, k = strnlen(src, n < room ? n : room);
  if (k == room)
    __chk_fail();
  memcpy(dst + end, src, k);
  dst[end + k] = 0;
  return dst;
}
