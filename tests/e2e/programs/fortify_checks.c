// CAIRN-ARGS: --search dfs --cflag -O1 --cflag -D_FORTIFY_SOURCE=2
// EXPECT: paths_completed=12 paths_partial=0 tests=12
// EXPECT-ERROR: abort abort 68
// EXPECT-ERROR: abort abort 69
// EXPECT-ERROR: abort abort 70
// EXPECT-ERROR: abort abort 71
// EXPECT-ERROR: abort abort 72
// EXPECT-ERROR: abort abort 73
// EXPECT-ERROR: abort abort 74
// EXPECT-ERROR: abort abort 75
// EXPECT-ERROR: abort abort 76
// EXPECT-ERROR: abort abort 77
// EXPECT-ERROR: abort abort 78
//
// glibc's fortified functions, which clang calls under -D_FORTIFY_SOURCE=2 where it knows the
// destination's size but not the length: each checks the size as glibc's does and aborts
// ("buffer overflow detected") when the destination is too small, even a member of a struct
// whose next member would take the overflow (sprintf's size there is the member's);
// otherwise it is the plain function.
#include "cairn.h"
#include <stdio.h>
#include <string.h>

struct Pair {
  char head[4];
  char tail[12];
};

// What the compiler cannot see through: the lengths, and the strings' contents.
volatile size_t fits = 8, over = 9;
char word[16] = "abc", longWord[16] = "abcdefgh";

// The n bytes at a are those at b (a loop: at -O1 memcmp and strcmp would become calls of bcmp).
static int same(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return 0;
  return 1;
}

int main(void) {
  char buf[8];
  struct Pair pair = {{0}, {0}};
  memcpy(buf, longWord, fits);
  klee_assert(same(buf, "abcdefgh", 8));
  memmove(buf + 1, buf, fits - 1);
  klee_assert(same(buf, "aabcdefg", 8));
  memset(buf, 'x', fits);
  klee_assert(buf[7] == 'x');
  strcpy(buf, word);
  klee_assert(same(buf, "abc", 4));
  strcat(buf, word);
  klee_assert(same(buf, "abcabc", 7));
  strncat(buf, longWord, fits - 7);
  klee_assert(same(buf, "abcabca", 8));
  strncpy(buf, word, fits);
  klee_assert(same(buf, "abc\0\0\0\0", 8));
  klee_assert(sprintf(buf, "%d", 1234567 + (int)fits - 8) == 7);
  klee_assert(same(buf, "1234567", 8));
  klee_assert(snprintf(buf, fits, "%s%s%s", word, word, word) == 9);
  klee_assert(same(buf, "abcabca", 8));
  klee_assert(sprintf(pair.head, "%s", word) == 3);
  printf("%s %s\n", buf, pair.head);
  fprintf(stdout, "%d\n", (int)fits);

  int which = klee_range(0, 12, "which");
  switch (which) {
  case 0: memcpy(buf, longWord, over); break;
  case 1: memmove(buf, longWord, over); break;
  case 2: memset(buf, 0, over); break;
  case 3: strcpy(buf, longWord); break;
  case 4: strncpy(buf, word, over); break;
  case 5: strcat(buf, word); break;
  case 6: strncat(buf, longWord, over); break;
  case 7: sprintf(buf, "%d", 12345678 + (int)fits - 8); break;
  case 8: snprintf(buf, over, "%s", word); break;
  case 9: sprintf(pair.head, "%s!", word); break;
  case 10: strcpy(buf + 4, longWord + 4); break;
  default: break;
  }
  return 0;
}
// Paths: one per value of `which`; eleven end in an overflow of the destination (case 5: buf
// holds "abcabca", no room for more; case 10: "efgh" and its NUL in buf's last 4 bytes), one
// normally: 12 paths, each with its test.
