/* musl calls some string functions by internal names (setlocale calls __strchrnul, strcpy
 * calls __stpcpy): these are the runtime's byte-at-a-time ones under those names, so that no
 * word-at-a-time read past an object's end is left in the libc. */
#include <stddef.h>

char *strchrnul(const char *s, int c);
char *stpcpy(char *dst, const char *src);
char *stpncpy(char *dst, const char *src, size_t n);

char *__strchrnul(const char *s, int c) { return strchrnul(s, c); }
char *__stpcpy(char *dst, const char *src) { return stpcpy(dst, src); }
char *__stpncpy(char *dst, const char *src, size_t n) { return stpncpy(dst, src, n); }
