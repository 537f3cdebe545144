// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Indirect calls through concrete function pointers: a table of structs holding pointers, a
// function taking a callback, and the runtime's qsort calling back into the program. One
// branch: 2 paths.
#include "cairn.h"
#include <stdlib.h>

typedef int (*binop)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

struct op {
  const char *name;
  binop fn;
};

static struct op ops[3] = {{"add", add}, {"sub", sub}, {"mul", mul}};

static int apply(binop f, int a, int b) { return f(a, b); }

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");

  int acc = 0;
  for (int i = 0; i < 3; i++)
    acc += apply(ops[i].fn, x, 3);
  klee_assert(acc == (x + 3) + (x - 3) + x * 3);

  int arr[5] = {4, 1, 3, 5, 2};
  qsort(arr, 5, sizeof arr[0], cmp_int);
  for (int i = 0; i < 5; i++)
    klee_assert(arr[i] == i + 1);

  binop chosen = ops[2].fn;
  if (chosen(x, 2) > 100)
    return 1;
  return 0;
}
