// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// The runtime's libc model: strlen over a 3-byte symbolic string (NUL-terminated by the
// program) forks once per possible length (4 paths); string, memory, conversion and ctype
// functions on concrete data do not fork.
#include "cairn.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char s[4];
  klee_make_symbolic(s, 3, "s");
  s[3] = 0;
  size_t n = strlen(s);
  klee_assert(n <= 3);

  char buf[16];
  strcpy(buf, "abc");
  strcat(buf, "def");
  klee_assert(strlen(buf) == 6);
  klee_assert(strcmp(buf, "abcdef") == 0);
  klee_assert(strcmp(buf, "abd") < 0);
  klee_assert(strncmp(buf, "abX", 2) == 0);
  klee_assert(strchr(buf, 'd') == buf + 3);
  klee_assert(strrchr("abcabc", 'b') != 0);
  klee_assert(strstr(buf, "cd") == buf + 2);
  klee_assert(memcmp(buf, "abd", 3) < 0);
  klee_assert(memchr(buf, 'e', 6) == buf + 4);
  klee_assert(atoi("-123") == -123);
  klee_assert(strtol("ff", 0, 16) == 255);
  klee_assert(toupper('q') == 'Q');
  klee_assert(isdigit('7'));
  klee_assert(!isalpha('7'));
  klee_assert(isspace(' '));
  return (int)n;
}
