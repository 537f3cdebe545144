// The paper's simplified echo (Figure 1) over N symbolic arguments of up to L characters: an
// optional "-n" first, then every argument printed character by character, then a newline
// unless -n was given. The states after the "-n" test differ in the concrete `arg`, which the
// loops branch on: QCE keeps them apart. Inside the printing loops the states that printed
// the same amount merge.
//   -DN=n   arguments (default 3)   -DL=n   characters per argument (default 3)
#include "cairn.h"

#ifndef N
#define N 3
#endif
#ifndef L
#define L 3
#endif

int putchar(int);

int main(void) {
  char argv[N][L + 1];
  klee_make_symbolic(argv, sizeof argv, "argv");
  int r = 1, arg = 0;
  for (int a = 0; a < N; ++a)
    argv[a][L] = 0;
  if (arg < N && argv[arg][0] == '-' && argv[arg][1] == 'n' && argv[arg][2] == 0) {
    r = 0;
    ++arg;
  }
  for (; arg < N; ++arg)
    for (int i = 0; argv[arg][i] != 0; ++i)
      putchar(argv[arg][i]);
  if (r)
    putchar('\n');
  return 0;
}
