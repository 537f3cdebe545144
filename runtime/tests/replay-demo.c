/* A program annotated for KLEE, replayed natively with libcairn-replay.a (runtime-replay test).
 * argv[1] picks what it does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <klee/klee.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "basic";
  if (!strcmp(mode, "basic")) {
    int x;
    char buf[4];
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(buf, sizeof buf, "buf");
    printf("x=%d buf=%02x%02x%02x%02x\n", x, (unsigned char)buf[0], (unsigned char)buf[1],
           (unsigned char)buf[2], (unsigned char)buf[3]);
    printf("symbolic=%u value=%d\n", klee_is_symbolic((uintptr_t)x), klee_get_value_i32(x));
    return 0;
  }
  if (!strcmp(mode, "svcomp")) {
    int a = __VERIFIER_nondet_int();
    _Bool b = __VERIFIER_nondet_bool();
    unsigned char c = __VERIFIER_nondet_uchar();
    int r = klee_range(10, 20, "r");
    int one = klee_range(5, 6, "unused"); /* a one-value range takes no input */
    int k = klee_int("k");
    __VERIFIER_assume(a > 0);
    printf("a=%d b=%d c=%u r=%d one=%d k=%d\n", a, (int)b, c, r, one, k);
    return 0;
  }
  if (!strcmp(mode, "assume")) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x > 100);
    printf("x=%d\n", x);
    return 0;
  }
  if (!strcmp(mode, "reach")) {
    int x = __VERIFIER_nondet_int();
    if (x == 42)
      reach_error();
    printf("no error\n");
    return 0;
  }
  if (!strcmp(mode, "assert")) {
    int x = klee_int("x");
    klee_assert(x > 0);
    printf("x positive\n");
    return 0;
  }
  if (!strcmp(mode, "exit")) {
    int x = klee_int("x");
    klee_silent_exit(x);
  }
  if (!strcmp(mode, "abort")) {
    int x = klee_int("x");
    if (x == 7)
      klee_abort();
    return 0;
  }
  if (!strcmp(mode, "make-symbolic")) {
    char buf[8];
    int n = klee_int("n");
    klee_make_symbolic(buf, n ? 8 : 4, "buf");
    if (!n)
      klee_make_symbolic(buf + 4, 8, "buf"); /* 4 bytes past the array */
    printf("ok\n");
    return 0;
  }
  if (!strcmp(mode, "empty-block")) {
    int x = klee_int("x");
    volatile char *p = x == 0   ? malloc(0) /* x == 1: NULL, and the block freed */
                       : x == 1 ? realloc(malloc(4), 0)
                       : x == 2 ? calloc(0, 4)
                                : malloc(1);
    return p[0] = 0;
  }
  if (!strcmp(mode, "read-only")) {
    int x = klee_int("x");
    char *s = (char *)"constant";
    s[x] = 'C';
    return s[0];
  }
  return 2;
}
