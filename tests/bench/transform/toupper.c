/* toupper: converts a fixed-length character array to upper case in place.
 *
 * Benchmark of "Taming the Hydra" (cfm-se), Table 2: the paper's motivating example. Every
 * character is symbolic, and the range test in the loop is one conditional branch at -O0, so
 * plain symbolic execution has exactly 2^N paths (1024 at N = 10); turning the branch into a
 * select (the transform) leaves 1, and merging the two sides after each test leaves 1 too.
 *
 * Paper's input sizes: N = 10, 50, 100 (characters).
 *   -DN=n      the length (default 10)
 *   -DMERGE    klee_open_merge()/klee_close_merge() around the branch (the paper's SM config)
 *   -DVERIFY   check the post-condition afterwards: no lower-case letter is left
 */
#include <klee/klee.h>
#include <assert.h>

#ifndef N
#define N 10
#endif

static void to_upper(char *text) {
  for (int i = 0; i < N; i++) {
#ifdef MERGE
    klee_open_merge();
#endif
    /* 'a' <= c <= 'z' as one unsigned comparison: one branch per character */
    if ((unsigned char)(text[i] - 'a') < 26)
      text[i] = (char)(text[i] - ('a' - 'A'));
#ifdef MERGE
    klee_close_merge();
#endif
  }
}

int main(void) {
  char text[N];
  klee_make_symbolic(text, sizeof text, "text");
  to_upper(text);
#ifdef VERIFY
  for (int i = 0; i < N; i++)
    assert((unsigned char)(text[i] - 'a') >= 26);
#endif
  return 0;
}
