// CAIRN-ARGS: --search dfs --cflag -O1
// EXPECT: paths_completed=3 paths_partial=0 tests=3
//
// At -O1 an external function returning a constant small struct returns a struct constant
// ({ double, double }, { i64, i64 }) in registers: the engine flattens it into one bit-vector
// by the data layout, as it does every aggregate in a register. Paths: x == -7 (puts),
// x == 1 (putchar), the rest (kept apart by their calls): 3.
#include "cairn.h"
#include <stdio.h>

struct point { double x, y; };
struct range { long lo, hi; };

__attribute__((noinline)) struct point origin(void) { return (struct point){1.5, -2.0}; }
__attribute__((noinline)) struct range span(void) { return (struct range){-7, 1L << 40}; }

int main(void) {
  struct point (*volatile get_point)(void) = origin; // called through, not folded away
  struct range (*volatile get_range)(void) = span;
  struct point p = get_point();
  struct range r = get_range();
  klee_assert(p.x == 1.5 && p.y == -2.0);
  klee_assert(r.lo == -7 && r.hi == 1L << 40);
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == r.lo) {
    puts("lo");
    return 1;
  }
  if (x == (int)p.x) {
    putchar('x');
    return 2;
  }
  return 0;
}
