// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Variadic functions: va_start/va_arg/va_end/va_copy with symbolic int arguments, more
// arguments than fit in registers (the overflow area), and mixed int, long long and double
// arguments. One branch on the symbolic sum: 2 paths.
#include "cairn.h"
#include <stdarg.h>

static int sum(int count, ...) {
  va_list ap;
  va_start(ap, count);
  int s = 0;
  for (int i = 0; i < count; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static int sum_twice(int count, ...) {
  va_list ap, again;
  va_start(ap, count);
  va_copy(again, ap);
  int s = 0;
  for (int i = 0; i < count; i++)
    s += va_arg(ap, int);
  for (int i = 0; i < count; i++)
    s += va_arg(again, int);
  va_end(again);
  va_end(ap);
  return s;
}

static long long mixed(int count, ...) {
  va_list ap;
  va_start(ap, count);
  long long total = 0;
  for (int i = 0; i < count; i++) {
    switch (i % 3) {
    case 0: total += va_arg(ap, int); break;
    case 1: total += va_arg(ap, long long); break;
    default: total += (long long)(va_arg(ap, double) * 2.0); break;
    }
  }
  va_end(ap);
  return total;
}

int main(void) {
  int a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");

  int s = sum(3, a, b, c);
  klee_assert(s == a + b + c);
  klee_assert(sum(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 55);
  klee_assert(sum_twice(2, a, 5) == 2 * a + 10);
  klee_assert(mixed(6, 1, 1LL << 40, 2.5, 4, -3LL, 0.25) == 1 + (1LL << 40) + 5 + 4 - 3 + 0);
  klee_assert(sum(0) == 0);

  if (s > 100)
    return 1;
  return 0;
}
