// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// Structs through varargs: an 8-byte struct travels in a register, a 24-byte one in memory (the
// caller passes it byval), a {double, int} struct in an SSE and a general register. Each sum is
// checked on its own path (which == 0, 1, 2, or none): 4 paths, no error.
#include "cairn.h"
#include <stdarg.h>

struct small {
  int a, b;
};
struct large {
  long long a, b, c;
};

static long long smalls(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = 0;
  for (int i = 0; i < n; i++) {
    struct small v = va_arg(ap, struct small);
    s += v.a * 10 + v.b;
  }
  va_end(ap);
  return s;
}

static long long larges(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = 0;
  for (int i = 0; i < n; i++) {
    struct large v = va_arg(ap, struct large);
    s += v.a + v.b + v.c;
  }
  va_end(ap);
  return s;
}

struct mixed {
  double d;
  int i;
};

static int mixeds(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    struct mixed v = va_arg(ap, struct mixed);
    s += v.d + v.i;
  }
  va_end(ap);
  return (int)s;
}

int main(void) {
  int which;
  klee_make_symbolic(&which, sizeof which, "which");
  struct small s1 = {1, 2}, s2 = {3, 4};
  struct large l1 = {100, 200, 300}, l2 = {1, 2, 3};
  struct mixed m1 = {0.5, 2}, m2 = {1.5, 3};
  if (which == 0)
    klee_assert(smalls(2, s1, s2) == 12 + 34);
  else if (which == 1)
    klee_assert(larges(2, l1, l2) == 606);
  else if (which == 2)
    klee_assert(mixeds(2, m1, m2) == 7);
  return 0;
}
