/* A program annotated for KLEE, replayed natively with libcairn-replay.a (runtime-replay test).
 * argv[1] picks what it does. */
#include <errno.h>
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
  if (!strcmp(mode, "state-api")) { /* what steers the analysis does nothing natively */
    klee_set_forking(0);
    klee_mark_global(&mode);
    klee_posix_prefer_cex(&mode, 1);
    klee_alias_function("puts", "abort");
    errno = ERANGE;
    printf("errno=%d\n", klee_get_errno());
    klee_print_range("v", 5);
    klee_stack_trace();
    return 0;
  }
  if (!strcmp(mode, "memory-api")) {
    static int table[10];
    char local[12];
    char *heap = malloc(20);
    char *fixed = (char *)(uintptr_t)0x40002000u;
    int x = klee_int("x");
    klee_define_fixed_object(fixed, 8);
    fixed[7] = 1;
    printf("sizes %zu %zu %zu %zu\n", klee_get_obj_size(fixed + 7), klee_get_obj_size(&table[9]),
           klee_get_obj_size(local), klee_get_obj_size(heap + 5));
    fflush(stdout);
    if (x == 0)
      klee_check_memory_access(heap, 21);
    else if (x == 1)
      klee_define_fixed_object(fixed + 4, 8);
    else if (x == 2)
      klee_check_memory_access((void *)8, 1);
    else if (x == 3)
      klee_get_obj_size((free(heap), heap));
    else if (x == 4)
      return fixed[8];
    klee_check_memory_access(local, sizeof local);
    return 0;
  }
  return 2;
}
