/* The fortified sprintf and snprintf as the analysis has them (the engine's handlers, in
 * worker/lib/interpreter/OutputFunctions.cpp): `cairn replay` links the program's calls here
 * (--wrap), since AddressSanitizer's own versions skip glibc's size checks. A failed check is
 * glibc's __chk_fail (the program aborts); the text is then written by the plain function,
 * whose writes AddressSanitizer checks. The fortified string functions are shared with the
 * analysis (runtime/lib/libc-fortify.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

__attribute__((__noreturn__)) void __chk_fail(void);

int __wrap___sprintf_chk(char *s, int flag, size_t slen, const char *format, ...);
int __wrap___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *format, ...);

/* The text with its NUL must fit in the destination. */
int __wrap___sprintf_chk(char *s, int flag, size_t slen, const char *format, ...) {
  (void)flag;
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(NULL, 0, format, ap);
  va_end(ap);
  if (slen == 0 || (n >= 0 && (size_t)n >= slen))
    __chk_fail();
  va_start(ap, format);
  n = vsprintf(s, format, ap);
  va_end(ap);
  return n;
}

/* The bound must fit in the destination, whatever the text. */
int __wrap___snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *format, ...) {
  (void)flag;
  if (slen < n)
    __chk_fail();
  va_list ap;
  va_start(ap, format);
  int r = vsnprintf(s, n, format, ap);
  va_end(ap);
  return r;
}
