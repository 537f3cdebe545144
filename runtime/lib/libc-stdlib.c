/* The <stdlib.h> part of Cairn's libc model (and errno): number parsing, integer helpers,
 * sorting and searching, a deterministic rand. malloc, free, exit and abort are the engine's. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/* errno: glibc's <errno.h> reads it through __errno_location(). */
static int cairn_errno;
CAIRN_RT int *__errno_location(void) { return &cairn_errno; }

#define CAIRN_EINVAL 22
#define CAIRN_ERANGE 34

/* --- strto* ---------------------------------------------------------------------------------- */

static int cairn_space(int c) { return (c == ' ') | ((unsigned)c - '\t' < 5u); }

/* The value of digit c in base 36, or 36 when c is no digit. */
static unsigned cairn_digit(int c) {
  unsigned u = (unsigned)c;
  if (u - '0' < 10u)
    return u - '0';
  u |= 32u;
  if (u - 'a' < 26u)
    return u - 'a' + 10u;
  return 36u;
}

/* Parses [space][sign][0x|0X|0]digits in base (0 or 2..36). *mag is the magnitude, saturated at
 * ULLONG_MAX with *overflow set; *neg the sign. *endptr (when given) is set after the last digit,
 * or to nptr when there is none. Returns 0 when the base is invalid (errno = EINVAL). */
static int cairn_parse(const char *nptr, char **endptr, int base, unsigned long long *mag,
                       int *neg, int *overflow) {
  const char *s = nptr;
  *mag = 0;
  *neg = 0;
  *overflow = 0;
  if (base < 0 || base == 1 || base > 36) {
    cairn_errno = CAIRN_EINVAL;
    if (endptr)
      *endptr = (char *)nptr;
    return 0;
  }
  while (cairn_space(*s))
    ++s;
  if (*s == '+' || *s == '-') {
    *neg = *s == '-';
    ++s;
  }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] | 32) == 'x' && cairn_digit(s[2]) < 16u) {
    s += 2;
    base = 16;
  } else if (base == 0) {
    base = s[0] == '0' ? 8 : 10;
  }
  const unsigned long long cutoff = ULLONG_MAX / (unsigned)base;
  const unsigned cutlim = (unsigned)(ULLONG_MAX % (unsigned)base);
  const char *first = s;
  unsigned long long acc = 0;
  for (;; ++s) {
    unsigned d = cairn_digit(*s);
    if (d >= (unsigned)base)
      break;
    if (*overflow || acc > cutoff || (acc == cutoff && d > cutlim))
      *overflow = 1;
    else
      acc = acc * (unsigned)base + d;
  }
  if (endptr)
    *endptr = (char *)(s == first ? nptr : s);
  *mag = *overflow ? ULLONG_MAX : acc;
  return 1;
}

CAIRN_RT unsigned long long strtoull(const char *nptr, char **endptr, int base) {
  unsigned long long mag;
  int neg, overflow;
  if (!cairn_parse(nptr, endptr, base, &mag, &neg, &overflow))
    return 0;
  if (overflow) {
    cairn_errno = CAIRN_ERANGE;
    return ULLONG_MAX;
  }
  return neg ? 0ull - mag : mag;
}

CAIRN_RT unsigned long strtoul(const char *nptr, char **endptr, int base) {
  unsigned long long mag;
  int neg, overflow;
  if (!cairn_parse(nptr, endptr, base, &mag, &neg, &overflow))
    return 0;
  if (overflow || mag > ULONG_MAX) {
    cairn_errno = CAIRN_ERANGE;
    return ULONG_MAX;
  }
  return neg ? 0ul - (unsigned long)mag : (unsigned long)mag;
}

CAIRN_RT long long strtoll(const char *nptr, char **endptr, int base) {
  unsigned long long mag;
  int neg, overflow;
  if (!cairn_parse(nptr, endptr, base, &mag, &neg, &overflow))
    return 0;
  if (!neg && (overflow || mag > (unsigned long long)LLONG_MAX)) {
    cairn_errno = CAIRN_ERANGE;
    return LLONG_MAX;
  }
  if (neg && (overflow || mag > (unsigned long long)LLONG_MAX + 1ull)) {
    cairn_errno = CAIRN_ERANGE;
    return LLONG_MIN;
  }
  /* Two's complement wrap-around: also right for -(LLONG_MAX + 1). */
  return neg ? (long long)(0ull - mag) : (long long)mag;
}

CAIRN_RT long strtol(const char *nptr, char **endptr, int base) {
  unsigned long long mag;
  int neg, overflow;
  if (!cairn_parse(nptr, endptr, base, &mag, &neg, &overflow))
    return 0;
  if (!neg && (overflow || mag > (unsigned long long)LONG_MAX)) {
    cairn_errno = CAIRN_ERANGE;
    return LONG_MAX;
  }
  if (neg && (overflow || mag > (unsigned long long)LONG_MAX + 1ull)) {
    cairn_errno = CAIRN_ERANGE;
    return LONG_MIN;
  }
  return neg ? (long)(0ul - (unsigned long)mag) : (long)mag;
}

/* atoi is (int)strtol(s, 0, 10) as in glibc: out-of-range values are not checked. */
CAIRN_RT int atoi(const char *s) { return (int)strtol(s, 0, 10); }
CAIRN_RT long atol(const char *s) { return strtol(s, 0, 10); }
CAIRN_RT long long atoll(const char *s) { return strtoll(s, 0, 10); }

/* --- integer helpers ------------------------------------------------------------------------- */

CAIRN_RT int abs(int x) { return x < 0 ? -x : x; }
CAIRN_RT long labs(long x) { return x < 0 ? -x : x; }
CAIRN_RT long long llabs(long long x) { return x < 0 ? -x : x; }

/* The layouts of glibc's div_t, ldiv_t and lldiv_t. */
typedef struct { int quot; int rem; } cairn_div_t;
typedef struct { long quot; long rem; } cairn_ldiv_t;
typedef struct { long long quot; long long rem; } cairn_lldiv_t;

CAIRN_RT cairn_div_t div(int n, int d) {
  cairn_div_t r = {n / d, n % d};
  return r;
}
CAIRN_RT cairn_ldiv_t ldiv(long n, long d) {
  cairn_ldiv_t r = {n / d, n % d};
  return r;
}
CAIRN_RT cairn_lldiv_t lldiv(long long n, long long d) {
  cairn_lldiv_t r = {n / d, n % d};
  return r;
}

/* --- sorting and searching ------------------------------------------------------------------- */

static void cairn_swap(unsigned char *a, unsigned char *b, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    unsigned char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

/* Insertion sort: stable, in place, no recursion, no allocation. Quadratic, which is what a
 * symbolically executed program can afford anyway. */
CAIRN_RT void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  unsigned char *a = (unsigned char *)base;
  if (n < 2 || size == 0)
    return;
  for (size_t i = 1; i < n; ++i)
    for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; --j)
      cairn_swap(a + (j - 1) * size, a + j * size, size);
}

CAIRN_RT void *bsearch(const void *key, const void *base, size_t n, size_t size,
                       int (*cmp)(const void *, const void *)) {
  const unsigned char *a = (const unsigned char *)base;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp(key, a + mid * size);
    if (c == 0)
      return (void *)(a + mid * size);
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return 0;
}

/* --- environment and random numbers ---------------------------------------------------------- */

/* An analysed program sees an empty environment: results must not depend on the analyser's. */
CAIRN_RT char *getenv(const char *name) {
  (void)name;
  return 0;
}

/* A 64-bit LCG (Knuth's MMIX constants); rand() returns its top 31 bits, so 0..RAND_MAX
 * (2^31 - 1) as glibc. Deterministic: unseeded it behaves as after srand(1). */
static uint64_t cairn_rand_state = 1;

CAIRN_RT void srand(unsigned seed) { cairn_rand_state = seed; }

CAIRN_RT int rand(void) {
  cairn_rand_state = cairn_rand_state * 6364136223846793005ull + 1442695040888963407ull;
  return (int)(cairn_rand_state >> 33);
}
