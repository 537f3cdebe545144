// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: ptr out-of-bounds 87
// EXPECT@segments: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR@segments: ptr out-of-bounds 87
//
// Every object lies at a multiple of its alignment, however large: globals, locals, a by-value
// argument, and heap blocks from memalign & co. (with glibc's rules: an alignment that is no
// power of two is rounded up by memalign and refused by posix_memalign and aligned_alloc).
// Objects moved into a segment (the variant) keep their alignment.
#include "cairn.h"
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

_Alignas(128) static char g128[3] = {1, 2, 3};
static int g256 __attribute__((aligned(256)));
static char g4096[10] __attribute__((aligned(4096)));

struct __attribute__((aligned(256))) Wide {
  char c[5];
};

static int aligned(const void *p, uintptr_t alignment) { return (uintptr_t)p % alignment == 0; }

static void byValue(struct Wide w) {
  klee_assert(aligned(&w, 256));
  klee_assert(w.c[4] == 5);
}

int main(void) {
  char before = 1;
  _Alignas(128) char s128[3] = {0};
  char s256[7] __attribute__((aligned(256)));
  _Alignas(4096) int s4096 = before;
  klee_assert(aligned(g128, 128) + aligned(&g256, 256) + aligned(g4096, 4096) == 3);
  klee_assert(aligned(s128, 128) + aligned(s256, 256) + aligned(&s4096, 4096) == 3);
  struct Wide w = {{1, 2, 3, 4, 5}};
  byValue(w);

  char *m = memalign(128, 10);
  klee_assert(aligned(m, 128));
  char *r = memalign(100, 3); // rounded up to 128
  klee_assert(aligned(r, 128));
  void *p = 0;
  klee_assert(posix_memalign(&p, 256, 40) == 0);
  klee_assert(aligned(p, 256));
  klee_assert(posix_memalign(&p, 24, 8) == EINVAL); // no power of two
  klee_assert(posix_memalign(&p, 4, 8) == EINVAL);  // no multiple of sizeof(void *)
  char *a = aligned_alloc(4096, 4096);
  klee_assert(aligned(a, 4096));
  errno = 0;
  klee_assert(aligned_alloc(48, 96) == 0);
  klee_assert(errno == EINVAL);
  errno = 0;
  klee_assert(memalign(SIZE_MAX / 2 + 2, 1) == 0); // beyond any power of two
  klee_assert(errno == EINVAL);
  klee_assert(memalign(4096, SIZE_MAX / 2) == 0); // too large
  klee_assert(errno == ENOMEM);
  char *v = valloc(1);
  klee_assert(aligned(v, 4096));
  char *pv = pvalloc(1); // a whole page
  klee_assert(aligned(pv, 4096));
  pv[4095] = 7;
  // An aligned block is a heap block like malloc's: realloc moves its bytes, free frees it.
  memcpy(m, "aligned", 8);
  m = realloc(m, 64);
  klee_assert(strcmp(m, "aligned") == 0);
  free(m);
  free(r);
  free(p);
  free(a);
  free(v);
  free(pv);

  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  char *x = memalign(256, 8), *y = memalign(4096, 8);
  char *either[2] = {x, y};
  either[i & 1][0] = 1; // two objects: two paths, or one segment (the variant)
  klee_assert(aligned(x, 256));
  klee_assert(aligned(y, 4096));
  char *z = memalign(512, 0);
  if (i == 7)
    z[0] = 1; // a block of no bytes
  return 0;
}
// Paths: i odd or even (the write through either[i & 1]; with --merge-objects both blocks move
// into one segment and the write does not fork), and i == 7 or not where i is odd: 3 paths (2
// with segments), one of them the error.
// CAIRN-VARIANT: segments --search dfs --memory-model relocatable --merge-objects --relocate-stack
