/* The <string.h> part of Cairn's libc model: plain loops, one byte at a time, so that every
 * access is an ordinary load or store the engine checks, and symbolic bytes stay per-byte
 * expressions. Compiled with -fno-builtin so no loop turns back into a call of itself. */
#include <stddef.h>

#include "runtime.h"

void *malloc(size_t size); /* the engine's */

CAIRN_RT void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  for (size_t i = 0; i < n; ++i)
    d[i] = s[i];
  return dst;
}

CAIRN_RT void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  if (d == s || n == 0)
    return dst;
  if (d < s) {
    for (size_t i = 0; i < n; ++i)
      d[i] = s[i];
  } else {
    for (size_t i = n; i > 0; --i)
      d[i - 1] = s[i - 1];
  }
  return dst;
}

CAIRN_RT void *memset(void *dst, int c, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  for (size_t i = 0; i < n; ++i)
    d[i] = (unsigned char)c;
  return dst;
}

CAIRN_RT int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a;
  const unsigned char *y = (const unsigned char *)b;
  for (size_t i = 0; i < n; ++i)
    if (x[i] != y[i])
      return (int)x[i] - (int)y[i];
  return 0;
}

/* Equal or not, with no order: clang emits it for memcmp(...) == 0 from -O1 on. */
CAIRN_RT int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n) != 0; }

CAIRN_RT void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n; ++i)
    if (p[i] == (unsigned char)c)
      return (void *)(p + i);
  return 0;
}

CAIRN_RT size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    ++n;
  return n;
}

CAIRN_RT size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    ++n;
  return n;
}

CAIRN_RT int strcmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a;
  const unsigned char *y = (const unsigned char *)b;
  size_t i = 0;
  while (x[i] && x[i] == y[i])
    ++i;
  return (int)x[i] - (int)y[i];
}

CAIRN_RT int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a;
  const unsigned char *y = (const unsigned char *)b;
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i])
      return (int)x[i] - (int)y[i];
    if (!x[i])
      return 0;
  }
  return 0;
}

CAIRN_RT char *strcpy(char *dst, const char *src) {
  size_t i = 0;
  while ((dst[i] = src[i]) != 0)
    ++i;
  return dst;
}

/* Copies at most n bytes; pads with NULs up to n when src is shorter (so may leave dst
 * unterminated when it is not). */
CAIRN_RT char *strncpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i]; ++i)
    dst[i] = src[i];
  for (; i < n; ++i)
    dst[i] = 0;
  return dst;
}

/* The POSIX and BSD relatives, byte at a time too: musl's own read whole words, which runs past
 * the end of an object (harmless natively, inside the page; an out-of-bounds read here). */
CAIRN_RT char *stpcpy(char *dst, const char *src) {
  size_t i = 0;
  while ((dst[i] = src[i]) != 0)
    ++i;
  return dst + i;
}

CAIRN_RT char *stpncpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i]; ++i)
    dst[i] = src[i];
  char *end = dst + i;
  for (; i < n; ++i)
    dst[i] = 0;
  return end;
}

CAIRN_RT size_t strlcpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; n && i + 1 < n && src[i]; ++i)
    dst[i] = src[i];
  if (n)
    dst[i] = 0;
  while (src[i])
    ++i;
  return i;
}

CAIRN_RT void *memccpy(void *dst, const void *src, int c, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  for (size_t i = 0; i < n; ++i)
    if ((d[i] = s[i]) == (unsigned char)c)
      return d + i + 1;
  return 0;
}

CAIRN_RT char *strchrnul(const char *s, int c) {
  char ch = (char)c;
  while (*s && *s != ch)
    ++s;
  return (char *)s;
}

CAIRN_RT char *strcat(char *dst, const char *src) {
  strcpy(dst + strlen(dst), src);
  return dst;
}

/* Appends at most n bytes of src, then always a NUL. */
CAIRN_RT char *strncat(char *dst, const char *src, size_t n) {
  char *d = dst + strlen(dst);
  size_t i = 0;
  for (; i < n && src[i]; ++i)
    d[i] = src[i];
  d[i] = 0;
  return dst;
}

/* c == '\0' finds the terminator, as the standard says. */
CAIRN_RT char *strchr(const char *s, int c) {
  char ch = (char)c;
  for (;; ++s) {
    if (*s == ch)
      return (char *)s;
    if (!*s)
      return 0;
  }
}

CAIRN_RT char *strrchr(const char *s, int c) {
  char ch = (char)c;
  const char *last = 0;
  for (;; ++s) {
    if (*s == ch)
      last = s;
    if (!*s)
      return (char *)last;
  }
}

CAIRN_RT char *strstr(const char *haystack, const char *needle) {
  if (!needle[0])
    return (char *)haystack;
  for (; *haystack; ++haystack) {
    size_t i = 0;
    while (needle[i] && haystack[i] == needle[i])
      ++i;
    if (!needle[i])
      return (char *)haystack;
  }
  return 0;
}

CAIRN_RT char *strdup(const char *s) {
  size_t n = strlen(s);
  char *d = (char *)malloc(n + 1);
  if (!d)
    return 0;
  for (size_t i = 0; i < n; ++i)
    d[i] = s[i];
  d[n] = 0;
  return d;
}

CAIRN_RT char *strndup(const char *s, size_t max) {
  size_t n = strnlen(s, max);
  char *d = (char *)malloc(n + 1);
  if (!d)
    return 0;
  for (size_t i = 0; i < n; ++i)
    d[i] = s[i];
  d[n] = 0;
  return d;
}

static int cairn_in_set(char c, const char *set) {
  for (; *set; ++set)
    if (*set == c)
      return 1;
  return 0;
}

CAIRN_RT size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (s[n] && cairn_in_set(s[n], accept))
    ++n;
  return n;
}

CAIRN_RT size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while (s[n] && !cairn_in_set(s[n], reject))
    ++n;
  return n;
}

CAIRN_RT char *strpbrk(const char *s, const char *accept) {
  for (; *s; ++s)
    if (cairn_in_set(*s, accept))
      return (char *)s;
  return 0;
}

static char *cairn_strtok_next;

CAIRN_RT char *strtok(char *s, const char *delim) {
  if (!s)
    s = cairn_strtok_next;
  if (!s)
    return 0;
  s += strspn(s, delim);
  if (!*s) {
    cairn_strtok_next = 0;
    return 0;
  }
  char *end = s + strcspn(s, delim);
  if (*end) {
    *end = 0;
    cairn_strtok_next = end + 1;
  } else {
    cairn_strtok_next = 0;
  }
  return s;
}
