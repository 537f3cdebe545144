/* runtime-libc-model: the libc model (runtime/lib/libc-*.c), compiled natively with the flags of
 * the bitcode and linked into this program, so its definitions are the ones called here. The
 * program includes glibc's headers, so the ctype macros go through the model's __ctype_b_loc. */
#define _GNU_SOURCE /* strchrnul, stpcpy, mempcpy */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* glibc 2.36 does not declare it; the model defines it (musl, the BSDs and glibc 2.38 do). */
size_t strlcpy(char *dst, const char *src, size_t n);

static int failures, checks;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    ++checks;                                                                                      \
    if (!(cond)) {                                                                                 \
      ++failures;                                                                                  \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                       \
    }                                                                                              \
  } while (0)

static int sign(int x) { return (x > 0) - (x < 0); }

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

struct pair {
  int key, order;
};
static int cmp_pair(const void *a, const void *b) {
  return ((const struct pair *)a)->key - ((const struct pair *)b)->key;
}

static void test_string(void) {
  char buf[32];
  CHECK(strlen("") == 0);
  CHECK(strlen("hello") == 5);
  CHECK(strnlen("hello", 3) == 3);
  CHECK(strnlen("hi", 10) == 2);
  CHECK(strcmp("abc", "abc") == 0);
  CHECK(strcmp("abc", "abd") < 0);
  CHECK(strcmp("b", "abc") > 0);
  CHECK(strcmp("ab", "abc") < 0);
  CHECK(strcmp("\xff", "a") > 0); /* compared as unsigned char */
  CHECK(strncmp("abcx", "abcy", 3) == 0);
  CHECK(strncmp("abcx", "abcy", 4) < 0);
  CHECK(strncmp("ab", "ab\0z", 4) == 0);
  CHECK(memcmp("abc", "abd", 2) == 0);
  CHECK(sign(memcmp("abc", "abd", 3)) == -1);
  CHECK(memcmp("\x80", "\x01", 1) > 0);
  CHECK(bcmp("abc", "abd", 2) == 0 && bcmp("abc", "abd", 3) != 0 && bcmp("x", "y", 0) == 0);

  memset(buf, 'x', sizeof buf);
  CHECK(strcpy(buf, "hello") == buf && !strcmp(buf, "hello"));
  CHECK(strcat(buf, " world") == buf && !strcmp(buf, "hello world"));
  strcpy(buf, "ab");
  CHECK(strncat(buf, "cdef", 2) == buf && !strcmp(buf, "abcd"));
  /* stpcpy, stpncpy, strlcpy, memccpy, strchrnul (the full libc takes these from the model). */
  CHECK(stpcpy(buf, "xyz") == buf + 3 && !strcmp(buf, "xyz"));
  memset(buf, 'q', 8);
  CHECK(stpncpy(buf, "ab", 5) == buf + 2 && !memcmp(buf, "ab\0\0\0qqq", 8));
  CHECK(stpncpy(buf, "abcdef", 3) == buf + 3 && !memcmp(buf, "abc\0\0qqq", 8));
  CHECK(strlcpy(buf, "hello", 4) == 5 && !strcmp(buf, "hel"));
  CHECK(strlcpy(buf, "hi", 8) == 2 && !strcmp(buf, "hi"));
  buf[0] = 'z';
  CHECK(strlcpy(buf, "abc", 0) == 3 && buf[0] == 'z');
  CHECK(memccpy(buf, "key=value", '=', 9) == buf + 4 && !memcmp(buf, "key=", 4));
  CHECK(memccpy(buf, "abc", 'x', 3) == NULL);
  const char *path = "path";
  CHECK(*strchrnul("path/x", '/') == '/' && strchrnul(path, '/') == path + 4 && strchrnul(path, 'a') == path + 1);
  memset(buf, 'x', sizeof buf);
  strncpy(buf, "ab", 5);
  CHECK(buf[0] == 'a' && buf[1] == 'b' && buf[2] == 0 && buf[4] == 0 && buf[5] == 'x');
  memset(buf, 'x', sizeof buf);
  strncpy(buf, "abcdef", 3);
  CHECK(buf[2] == 'c' && buf[3] == 'x');

  strcpy(buf, "0123456789");
  memmove(buf + 2, buf, 5);
  CHECK(!strcmp(buf, "0101234789"));
  strcpy(buf, "0123456789");
  memmove(buf, buf + 2, 5);
  CHECK(!strcmp(buf, "2345656789"));
  CHECK(memcpy(buf, "xyz", 4) == buf && !strcmp(buf, "xyz"));
  CHECK(memset(buf, 0x41, 3) == buf && buf[0] == 'A' && buf[2] == 'A' && buf[3] == 0);

  const char *s = "hello world";
  CHECK(memchr(s, 'o', 11) == s + 4);
  CHECK(memchr(s, 'o', 4) == NULL);
  CHECK(strchr(s, 'o') == s + 4);
  CHECK(strchr(s, 'z') == NULL);
  CHECK(strchr(s, 0) == s + 11);
  CHECK(strrchr(s, 'o') == s + 7);
  CHECK(strrchr(s, 0) == s + 11);
  CHECK(strrchr(s, 'z') == NULL);
  CHECK(strstr(s, "wor") == s + 6);
  CHECK(strstr(s, "") == s);
  CHECK(strstr(s, "word") == NULL);
  CHECK(strstr("aaab", "aab") && !strcmp(strstr("aaab", "aab"), "aab"));
  CHECK(strspn("abcde", "bac") == 3);
  CHECK(strcspn("abcde", "dx") == 3);
  CHECK(strcspn("abc", "") == 3);
  CHECK(strpbrk(s, "wd") == s + 6);
  CHECK(strpbrk(s, "XYZ") == NULL);

  char *d = strdup("copy");
  CHECK(d && !strcmp(d, "copy"));
  free(d);
  d = strndup("copy", 2);
  CHECK(d && !strcmp(d, "co"));
  free(d);

  char text[] = "  a,b;;c  ";
  char *t1 = strtok(text, " ,;");
  char *t2 = strtok(NULL, " ,;");
  char *t3 = strtok(NULL, " ,;");
  char *t4 = strtok(NULL, " ,;");
  CHECK(t1 && !strcmp(t1, "a"));
  CHECK(t2 && !strcmp(t2, "b"));
  CHECK(t3 && !strcmp(t3, "c"));
  CHECK(t4 == NULL);
  CHECK(strtok(NULL, " ") == NULL);
}

static void test_ctype(void) {
  /* Every value a ctype function accepts, against an independent description of the C locale;
   * the glibc macros (through __ctype_b_loc) and the functions must agree. */
  for (int c = -128; c < 256; ++c) {
    int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    int alpha = upper || lower, alnum = alpha || digit;
    int xdigit = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    int space = c == ' ' || (c >= 9 && c <= 13), print = c >= 32 && c <= 126;
    int graph = c >= 33 && c <= 126, cntrl = (c >= 0 && c < 32) || c == 127;
    int punct = graph && !alnum;
    int ok = 1;
    ok &= !!isupper(c) == upper && !!(isupper)(c) == upper;
    ok &= !!islower(c) == lower && !!(islower)(c) == lower;
    ok &= !!isalpha(c) == alpha && !!(isalpha)(c) == alpha;
    ok &= !!isdigit(c) == digit && !!(isdigit)(c) == digit;
    ok &= !!isalnum(c) == alnum && !!(isalnum)(c) == alnum;
    ok &= !!isxdigit(c) == xdigit && !!(isxdigit)(c) == xdigit;
    ok &= !!isspace(c) == space && !!(isspace)(c) == space;
    ok &= !!isprint(c) == print && !!(isprint)(c) == print;
    ok &= !!isgraph(c) == graph && !!(isgraph)(c) == graph;
    ok &= !!iscntrl(c) == cntrl && !!(iscntrl)(c) == cntrl;
    ok &= !!ispunct(c) == punct && !!(ispunct)(c) == punct;
    ok &= !!isblank(c) == (c == ' ' || c == '\t');
    int up = lower ? c - 32 : c, low = upper ? c + 32 : c;
    ok &= (toupper)(c) == up && (tolower)(c) == low;
    ok &= (*__ctype_toupper_loc())[c] == up && (*__ctype_tolower_loc())[c] == low;
    ++checks;
    if (!ok) {
      ++failures;
      printf("FAIL ctype disagrees for %d\n", c);
    }
  }
  CHECK(toupper(EOF) == EOF && tolower(EOF) == EOF && !isalpha(EOF));
}

static void test_strto(void) {
  char *end;
  CHECK(atoi("42") == 42);
  CHECK(atoi("  -17xyz") == -17);
  CHECK(atoi("+5") == 5);
  CHECK(atoi("") == 0);
  CHECK(atol("123456789012") == 123456789012L);
  CHECK(atoll("-9223372036854775808") == LLONG_MIN);

  CHECK(strtol("0x1F", &end, 0) == 31 && *end == 0);
  CHECK(strtol("0x1F", &end, 16) == 31 && *end == 0);
  CHECK(strtol("1F", &end, 16) == 31);
  CHECK(strtol("017", &end, 0) == 15);
  CHECK(strtol("017", &end, 10) == 17);
  CHECK(strtol("101", &end, 2) == 5);
  CHECK(strtol("zz", &end, 36) == 35 * 36 + 35);
  CHECK(strtol("0x", &end, 16) == 0 && *end == 'x');
  CHECK(strtol("0xg", &end, 0) == 0 && *end == 'x');
  const char *none = "  +z";
  CHECK(strtol(none, &end, 10) == 0 && end == none);
  CHECK(strtol("12ab", &end, 10) == 12 && !strcmp(end, "ab"));
  CHECK(strtol("-0", &end, 10) == 0 && *end == 0);
  const char *badbase = "12";
  errno = 0;
  CHECK(strtol(badbase, &end, 1) == 0 && end == badbase && errno == EINVAL);
  errno = 0;
  CHECK(strtol("12", &end, 37) == 0 && errno == EINVAL);

  errno = 0;
  CHECK(strtol("9223372036854775807", &end, 10) == LONG_MAX && errno == 0);
  CHECK(strtol("9223372036854775808", &end, 10) == LONG_MAX && errno == ERANGE && *end == 0);
  errno = 0;
  CHECK(strtol("-9223372036854775808", &end, 10) == LONG_MIN && errno == 0);
  CHECK(strtol("-9223372036854775809", &end, 10) == LONG_MIN && errno == ERANGE);
  errno = 0;
  CHECK(strtol("99999999999999999999999999", &end, 10) == LONG_MAX && errno == ERANGE &&
        *end == 0);
  errno = 0;
  CHECK(strtoll("-9223372036854775808", &end, 10) == LLONG_MIN && errno == 0);
  CHECK(strtoll("9223372036854775808", &end, 10) == LLONG_MAX && errno == ERANGE);

  errno = 0;
  CHECK(strtoul("18446744073709551615", &end, 10) == ULONG_MAX && errno == 0);
  CHECK(strtoul("18446744073709551616", &end, 10) == ULONG_MAX && errno == ERANGE);
  errno = 0;
  CHECK(strtoul("-1", &end, 10) == ULONG_MAX && errno == 0);
  CHECK(strtoull("0xffffffffffffffff", &end, 0) == ULLONG_MAX && errno == 0);
  CHECK(strtoull("777", &end, 8) == 511);
  CHECK(strtoull("\t\n 42", &end, 0) == 42);
}

static void test_stdlib(void) {
  CHECK(abs(-5) == 5 && abs(5) == 5 && abs(0) == 0);
  CHECK(labs(-5L) == 5 && llabs(-5LL) == 5);
  div_t q = div(17, 5);
  CHECK(q.quot == 3 && q.rem == 2);
  q = div(-17, 5);
  CHECK(q.quot == -3 && q.rem == -2);
  ldiv_t lq = ldiv(-17L, 5L);
  CHECK(lq.quot == -3 && lq.rem == -2);

  int a[] = {5, 3, 9, -1, 3, 0, 7, 2, 8, 1};
  qsort(a, 10, sizeof a[0], cmp_int);
  int sorted = 1;
  for (int i = 1; i < 10; ++i)
    sorted &= a[i - 1] <= a[i];
  CHECK(sorted && a[0] == -1 && a[9] == 9);
  qsort(a, 0, sizeof a[0], cmp_int);
  qsort(a, 1, sizeof a[0], cmp_int);

  struct pair p[] = {{2, 0}, {1, 1}, {2, 2}, {1, 3}, {0, 4}, {2, 5}};
  qsort(p, 6, sizeof p[0], cmp_pair);
  CHECK(p[0].order == 4 && p[1].order == 1 && p[2].order == 3 && p[3].order == 0 &&
        p[4].order == 2 && p[5].order == 5); /* stable */

  int key = 7;
  int *hit = bsearch(&key, a, 10, sizeof a[0], cmp_int);
  CHECK(hit && *hit == 7);
  key = 4;
  CHECK(bsearch(&key, a, 10, sizeof a[0], cmp_int) == NULL);
  key = -1;
  CHECK(bsearch(&key, a, 10, sizeof a[0], cmp_int) == a);
  CHECK(bsearch(&key, a, 0, sizeof a[0], cmp_int) == NULL);

  CHECK(getenv("PATH") == NULL);

  srand(7);
  int r1 = rand(), r2 = rand();
  srand(7);
  CHECK(rand() == r1 && rand() == r2 && r1 != r2);
  int in_range = 1;
  for (int i = 0; i < 1000; ++i) {
    int r = rand();
    in_range &= r >= 0 && r <= RAND_MAX;
  }
  CHECK(in_range);
}

/* The engine's aligned allocation, natively: a bump allocator in an arena (its blocks are never
 * freed here), refusing alignments over a page as the engine refuses those over 2^31. */
void *cairn_aligned_malloc(size_t alignment, size_t size);
static _Alignas(4096) unsigned char arena[1 << 16];
static size_t arena_used, last_alignment, last_size;
void *cairn_aligned_malloc(size_t alignment, size_t size) {
  last_alignment = alignment;
  last_size = size;
  size_t at = (arena_used + alignment - 1) & ~(alignment - 1);
  if (alignment > 4096 || at + size > sizeof arena)
    return NULL;
  arena_used = at + size;
  return arena + at;
}

static int aligned(const void *p, uintptr_t alignment) { return p && (uintptr_t)p % alignment == 0; }

/* An alignment the compiler does not see: it neither warns about it nor assumes the result
 * has it (memalign & co. are declared with alloc_align). */
static size_t opaque(size_t x) {
  volatile size_t v = x;
  return v;
}

static void test_memalign(void) {
  CHECK(aligned(memalign(opaque(64), 10), 64) && last_alignment == 64);
  CHECK(aligned(memalign(opaque(100), 3), 128) && last_alignment == 128); /* rounded up */
  last_alignment = 0;
  void *small = memalign(opaque(8), 5); /* malloc's */
  CHECK(small && last_alignment == 0);
  free(small);
  errno = 0;
  CHECK(memalign(opaque(SIZE_MAX / 2 + 2), 1) == NULL && errno == EINVAL);
  errno = 0;
  CHECK(memalign(opaque(8192), 1) == NULL && errno == ENOMEM);
  void *p = NULL;
  CHECK(posix_memalign(&p, opaque(24), 8) == EINVAL && p == NULL);
  CHECK(posix_memalign(&p, opaque(4), 8) == EINVAL && p == NULL);
  CHECK(posix_memalign(&p, opaque(0), 8) == EINVAL && p == NULL);
  CHECK(posix_memalign(&p, opaque(256), 8) == 0 && aligned(p, 256));
  p = NULL;
  CHECK(posix_memalign(&p, opaque(8192), 1) == ENOMEM && p == NULL);
  errno = 0;
  CHECK(aligned_alloc(opaque(48), 96) == NULL && errno == EINVAL);
  errno = 0;
  CHECK(aligned_alloc(opaque(0), 1) == NULL && errno == EINVAL);
  CHECK(aligned(aligned_alloc(opaque(512), 1), 512));
  CHECK(aligned(valloc(1), 4096) && last_size == 1);
  CHECK(aligned(pvalloc(1), 4096) && last_size == 4096);
  errno = 0;
  CHECK(pvalloc(SIZE_MAX) == NULL && errno == ENOMEM);
}

/* The fortified functions end in klee_report_error when a check fails: here it jumps back. */
void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dstlen);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t dstlen);
void *__memset_chk(void *dst, int c, size_t n, size_t dstlen);
char *__strcpy_chk(char *dst, const char *src, size_t dstlen);
char *__strncpy_chk(char *dst, const char *src, size_t n, size_t dstlen);
char *__strcat_chk(char *dst, const char *src, size_t dstlen);
char *__strncat_chk(char *dst, const char *src, size_t n, size_t dstlen);
__attribute__((__noreturn__)) void klee_report_error(const char *file, int line, const char *message,
                                                     const char *suffix);
static jmp_buf chk_env;
static const char *reported;
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  reported = suffix;
  longjmp(chk_env, 1);
}

#define CHECK_FAILS(call)                                                                          \
  do {                                                                                             \
    reported = NULL;                                                                               \
    if (setjmp(chk_env) == 0)                                                                      \
      (void)(call);                                                                                \
    CHECK(reported && strcmp(reported, "abort.err") == 0);                                         \
  } while (0)

static void test_fortify(void) {
  char buf[8];
  CHECK(__memcpy_chk(buf, "abcdefgh", 8, 8) == buf && memcmp(buf, "abcdefgh", 8) == 0);
  CHECK_FAILS(__memcpy_chk(buf, "abcdefghi", 9, 8));
  CHECK(__memmove_chk(buf + 1, buf, 7, 7) == buf + 1 && memcmp(buf, "aabcdefg", 8) == 0);
  CHECK_FAILS(__memmove_chk(buf + 1, buf, 8, 7));
  CHECK(__memset_chk(buf, 'x', 8, 8) == buf && buf[7] == 'x');
  CHECK_FAILS(__memset_chk(buf, 'x', 9, 8));
  CHECK_FAILS(__strcat_chk(buf, "", 8)); /* no NUL within the destination */
  CHECK(__strcpy_chk(buf, "1234567", 8) == buf && strcmp(buf, "1234567") == 0);
  CHECK_FAILS(__strcpy_chk(buf, "12345678", 8));
  CHECK(__strncpy_chk(buf, "ab", 8, 8) == buf && memcmp(buf, "ab\0\0\0\0\0\0", 8) == 0);
  CHECK_FAILS(__strncpy_chk(buf, "ab", 9, 8));
  strcpy(buf, "abc");
  CHECK(__strcat_chk(buf, "defg", 8) == buf && strcmp(buf, "abcdefg") == 0);
  CHECK_FAILS(__strcat_chk(buf, "h", 8));
  strcpy(buf, "abc");
  CHECK(__strncat_chk(buf, "defgh", 4, 8) == buf && strcmp(buf, "abcdefg") == 0);
  strcpy(buf, "abc");
  CHECK_FAILS(__strncat_chk(buf, "defgh", 5, 8));
  strcpy(buf, "abc");
  CHECK(__strncat_chk(buf, "de", 10, 8) == buf && strcmp(buf, "abcde") == 0);
}

static void test_posix(void) {
  CHECK((htonl)(0x11223344u) == 0x44332211u && (ntohl)(0x44332211u) == 0x11223344u);
  CHECK((htons)(0x1122) == 0x2211 && (ntohs)(0x2211) == 0x1122);
  struct timespec day = {86400, 0}, rem = {7, 7}, invalid = {0, 1000000000};
  CHECK(nanosleep(&day, &rem) == 0 && rem.tv_sec == 7 && rem.tv_nsec == 7);
  errno = 0;
  CHECK(nanosleep(&invalid, NULL) == -1 && errno == EINVAL);
  CHECK(sleep(86400) == 0 && usleep(999999) == 0);
}

int main(void) {
  test_string();
  test_ctype();
  test_strto();
  test_stdlib();
  test_memalign();
  test_fortify();
  test_posix();
  printf("%d of %d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}
