// The thesis' memspn (Fig. 6.1) with chars = "ab" over N symbolic bytes and n <= N: each
// iteration's two matches rejoin at count++ (incremental merging's subject, T2).
#include "cairn.h"

static int memspn(const char *s, unsigned n, const char *chars) {
  const char *p = chars;
  unsigned count = 0;
  while (*p && count < n) {
    if (*p == s[count]) {
      count++;
      p = chars;
    } else {
      p++;
    }
  }
  return count;
}

int main(void) {
  char s[N];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= N);
  klee_open_merge();
  int r = memspn(s, n, "ab");
  klee_close_merge();
  return r == N / 2;
}
