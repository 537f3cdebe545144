// CAIRN-ARGS: --transform-branches symbolic
// EXPECT: paths_completed=1 paths_partial=0 tests=1
// EXPECT@plain: paths_completed=1024 paths_partial=0 tests=1024
//
// The targeted control-flow transformation's motivating loop: a branch on each symbolic
// character doubles the paths, 2^10 without the transformation. Melded (the store made
// unconditional, writing back the character where it is not lower case), the loop is one path,
// and the assertions after it hold on it. The variants run it plain and at the larger sizes.
#include "cairn.h"
#include <assert.h>

#ifndef N
#define N 10
#endif

static void to_upper(char *text) {
  for (int i = 0; i < N; i++)
    if ((unsigned char)(text[i] - 'a') < 26)
      text[i] = text[i] - ('a' - 'A');
}

int main(void) {
  char text[N];
  klee_make_symbolic(text, sizeof text, "text");
  to_upper(text);
  for (int i = 0; i < N; i++)
    assert((unsigned char)(text[i] - 'a') >= 26);
  return 0;
}
// CAIRN-VARIANT: plain
// CAIRN-VARIANT: n50 --transform-branches symbolic --cflag -DN=50
// CAIRN-VARIANT: n100 --transform-branches symbolic --cflag -DN=100
