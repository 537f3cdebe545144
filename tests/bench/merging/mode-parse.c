// Where merging does not pay: a scanner whose `mode` records the class of every character so
// far and is branched on at each step and after the loop: no two states hold the same concrete
// mode where they meet.
// QCE finds `mode` hot, the similarity keeps every pair apart until the return, where nothing
// is hot any more, and a merging strategy costs its bookkeeping (stops at block entries,
// hashes, picks) and the merges at the return, against the tests no merging writes.
//   -DN=n   characters (default 6)
#include "cairn.h"

#ifndef N
#define N 6
#endif

int main(void) {
  char s[N];
  klee_make_symbolic(s, sizeof s, "s");
  unsigned mode = 0, marks = 0;
  for (int i = 0; i < N; ++i) {
    if (s[i] < '0')
      mode = mode * 4 + 1;
    else if (s[i] <= '9')
      mode = mode * 4 + 2;
    else
      mode = mode * 4 + 3;
    if (mode % 7 == 1)
      ++marks;
  }
  if (mode % 5 == 2) // mode is read after the loop too: hot at its exit
    return -1;
  return (int)marks;
}
