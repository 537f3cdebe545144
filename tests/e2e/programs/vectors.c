// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Vectors with __attribute__((vector_size)): element-wise i32 arithmetic, i8 arithmetic on a
// 16-byte vector (wrapping), i16 shifts, shufflevector, insert/extract element with symbolic
// values, and a vector load/store through memory (vector comparisons: vector_compare.c). One
// branch on an element of a vector sum: 2 paths.
#include "cairn.h"

typedef int v4si __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));

int main(void) {
  int x;
  unsigned char c;
  short h;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&h, sizeof h, "h");

  v4si a = {x, 1, 2, 3};
  v4si b = a * 3 + (v4si){1, 1, 1, 1};
  klee_assert(b[0] == 3 * x + 1);
  klee_assert(b[3] == 10);
  v4si s = __builtin_shufflevector(a, b, 7, 0, 4, 1);
  klee_assert(s[0] == 10);
  klee_assert(s[1] == x);
  klee_assert(s[2] == 3 * x + 1);

  v16qu q = {0};
  q[0] = c;
  q += (v16qu){200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200};
  klee_assert(q[0] == (unsigned char)(c + 200));
  klee_assert(q[5] == 200);

  v8hi w = {h, 1, 2, 3, 4, 5, 6, 7};
  w = w << 2;
  klee_assert(w[0] == (short)(h << 2));
  klee_assert(w[7] == 28);

  v4si stored[2];
  stored[1] = b;
  klee_assert(stored[1][0] == b[0]);

  if (b[0] > 7)
    return 1;
  return 0;
}
