// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=2
// EXPECT-ERROR: ptr out-of-bounds 30
//
// Code written for a 32-bit size_t (SV-COMP's ILP32 tasks declare the heap functions so) passes
// 32-bit sizes, symbolic ones included. calloc(n, 4), n in 1..2, forks on its size (4 or 8; the
// false assumptions end silently); realloc and malloc then have sizes of one value each, and the
// last write is one element past the end when n == 2.
typedef unsigned int size_t;
extern void *malloc(size_t);
extern void *calloc(size_t, size_t);
extern void *realloc(void *, size_t);
extern void free(void *);
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n >= 1);
  __VERIFIER_assume(n <= 2);
  int *a = calloc(n, sizeof(int));
  for (unsigned i = 0; i < n; i++)
    a[i] = (int)i + a[i];
  int *b = realloc(a, sizeof(int) * (n + 1));
  b[n] = 7;
  int *c = malloc(sizeof(int) * n);
  for (unsigned i = 0; i < n; i++)
    c[i] = b[i];
  if (n == 2)
    c[n] = b[n];
  free(b);
  free(c);
  return 0;
}
// CAIRN-VARIANT: symsize --search dfs --size-model symbolic
