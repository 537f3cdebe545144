// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Direct calls: a small struct returned in registers, a large struct returned through sret and
// passed by value (byval; that the callee's writes stay in its copy is byval_copy.c), narrow argument and return types (signext i8, i16), an out
// parameter, and a call chain. One branch on the result of a call: 2 paths.
#include "cairn.h"

struct pair {
  long long a;
  int b;
};

struct big {
  int v[8];
};

static struct pair make_pair(long long a, int b) {
  struct pair p = {a, b};
  return p;
}

static struct big make_big(int seed) {
  struct big b;
  for (int i = 0; i < 8; i++)
    b.v[i] = seed + i;
  return b;
}

static int sum_big(struct big b) {
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += b.v[i];
  return s;
}

static short widen(signed char c) { return (short)(c * 2); }
static void out_param(int *p) { *p += 5; }
static int chain3(int v) { return v + 3; }
static int chain2(int v) { return chain3(v) * 2; }
static int chain1(int v) { return chain2(v) - 1; }

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");

  struct pair p = make_pair(x, x + 1);
  klee_assert(p.a == x);
  klee_assert(p.b == x + 1);
  struct big b = make_big(x);
  klee_assert(sum_big(b) == 8 * x + 28);
  int y = x;
  out_param(&y);
  klee_assert(y == x + 5);
  klee_assert(chain1(x) == (x + 3) * 2 - 1);

  if (widen((signed char)x) < 0)
    return 1;
  return 0;
}
