// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=1239 paths_partial=0 tests=1176
// EXPECT-ERROR: ptr out-of-bounds 26
// EXPECT-ERROR: ptr out-of-bounds 28
//
// KLEE's tutorial example: Kernighan and Pike's regular-expression matcher run on a symbolic
// 7-byte pattern, here against "hi" (the tutorial's "hello" gives 7692 paths: too slow here).
// The pattern buffer is not NUL-terminated, so a pattern whose bytes are all non-NUL makes
// matchhere read re[7], one past the end: at the re[0] test when re == pattern + 7, and at the
// re[1] test when re == pattern + 6. Every branch compares one pattern byte with a constant;
// enumerating them gives 1174 normal paths, 28 reading past the end at the first test and 37 at
// the second (only the first path to each error location gets a test).
#include "cairn.h"

static int matchhere(char *re, char *text);

static int matchstar(int c, char *re, char *text) {
  do { /* a star matches zero or more instances */
    if (matchhere(re, text))
      return 1;
  } while (*text != '\0' && (*text++ == c || c == '.'));
  return 0;
}

static int matchhere(char *re, char *text) {
  if (re[0] == '\0')
    return 0;
  if (re[1] == '*')
    return matchstar(re[0], re + 2, text);
  if (re[0] == '$' && re[1] == '\0')
    return *text == '\0';
  if (*text != '\0' && (re[0] == '.' || re[0] == *text))
    return matchhere(re + 1, text + 1);
  return 0;
}

static int match(char *re, char *text) {
  if (re[0] == '^')
    return matchhere(re + 1, text);
  do {
    if (matchhere(re, text))
      return 1;
  } while (*text++ != '\0');
  return 0;
}

#define SIZE 7

int main(void) {
  char re[SIZE]; /* deliberately one byte short of a terminated 7-character pattern */
  klee_make_symbolic(re, sizeof re, "re");
  match(re, "hi");
  return 0;
}
