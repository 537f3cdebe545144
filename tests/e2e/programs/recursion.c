// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// Recursion: factorial and Fibonacci on concrete values (deep call trees), mutual recursion,
// and recursion on a symbolic n < 6: depth(n) forks at every level, one path per n (6). The
// mutual recursion on the same n is decided on each path.
#include "cairn.h"

static unsigned fact(unsigned n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int depth(unsigned n) {
  if (n == 0)
    return 0;
  return 1 + depth(n - 1);
}
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void) {
  klee_assert(fact(10) == 3628800u);
  klee_assert(fib(15) == 610);
  klee_assert(is_even(10));

  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < 6);
  int d = depth(n);
  klee_assert(d == (int)n);
  klee_assert(is_even(n) == ((n & 1) == 0));
  return d;
}
