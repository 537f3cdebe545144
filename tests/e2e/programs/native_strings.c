// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=17 paths_partial=0 tests=17
// EXPECT-ERROR: ptr out-of-bounds 61
// EXPECT-ERROR: ptr out-of-bounds 63
// EXPECT-ERROR: ptr out-of-bounds 65
// EXPECT-ERROR: ptr out-of-bounds 67
// EXPECT-ERROR: ptr read-only 69
// EXPECT-ERROR: ptr out-of-bounds 71
//
// The runtime's string and memory functions run natively where every byte is concrete and in
// bounds, and as their C code everywhere else: the answers, forks, errors and their lines must
// be the same either way (the no-native variant runs the C code always). Concrete calls check
// every result. Each case of `which` is one path, except where a symbolic byte makes the C
// loop fork: strlen (4 lengths), strchr (4 ways) and memcmp (2). A missing terminator, a short
// destination, a compare past an object and a write to a string literal are the C code's
// errors, at the caller's line: 6 + 4 + 4 + 2 + 1 paths.
#define _GNU_SOURCE // strchrnul, natively
#include "cairn.h"
#include <stdlib.h>
#include <string.h>

static char text[64] = "native strings: the concrete fast path";

static void concrete_calls(void) {
  char buf[64], other[64];
  klee_assert(strlen(text) == 38);
  klee_assert(strnlen(text, 6) == 6 && strnlen(text, 100) == 38);
  klee_assert(strchr(text, 's') == text + 7 && strchr(text, 'z') == 0 && strchr(text, 0) == text + 38);
  klee_assert(strrchr(text, 't') == text + 36 && strrchr(text, 'q') == 0);
  klee_assert(strchrnul(text, 'z') == text + 38);
  klee_assert(memchr(text, ':', 64) == text + 14 && memchr(text, 'z', 64) == 0);
  klee_assert(strcpy(buf, text) == buf && strcmp(buf, text) == 0);
  klee_assert(stpcpy(other, "native") == other + 6);
  klee_assert(strcmp(other, text) < 0 && strcmp(text, other) > 0 && strncmp(other, text, 6) == 0);
  klee_assert(strncmp("abc", "abd", 3) == -1 && strncmp("abc", "abd", 2) == 0);
  klee_assert(memcmp(text, buf, 38) == 0 && memcmp("ab", "ac", 2) == -1 && bcmp(buf, "native", 6) == 0 && bcmp(buf, "nativE", 6) != 0);
  klee_assert(memset(buf, 'x', 10) == buf && buf[9] == 'x' && buf[10] == 'i');
  klee_assert(memcpy(buf, "0123456789", 10) == buf && buf[0] == '0' && buf[9] == '9');
  klee_assert(memmove(buf + 2, buf, 8) == buf + 2 && buf[2] == '0' && buf[9] == '7');
  klee_assert(memmove(buf, buf + 2, 8) == buf && buf[0] == '0' && buf[7] == '7');
  void *(*through_pointer)(void *, const void *, size_t) = memcpy; // stays a call at any -O
  through_pointer(other, text, 64);
  klee_assert(memcmp(other, text, 64) == 0);
}

int main(void) {
  concrete_calls();

  char s[4];
  klee_make_symbolic(s, 3, "s");
  s[3] = 0;
  char word[3] = {'a', s[1], 0};
  int which;
  klee_make_symbolic(&which, sizeof which, "which");
  char *heap = malloc(4);
  memcpy(heap, "abcd", 4); // no terminator
  char small[4];
  const char *literal = "literal";
  switch (which) {
  case 0:
    return (int)strlen(heap); // reads past the heap block
  case 1:
    return memcpy(small, text, 8) != 0; // writes past small
  case 2:
    return memcmp(heap, "abcdef", 6); // equal up to the end of heap, then reads past it
  case 3:
    return strcpy(small, text) != 0; // writes past small
  case 4:
    return strcpy((char *)literal, "x") != 0; // writes to a string literal
  case 5:
    return strchr(heap, 'z') != 0; // reads past the heap block
  case 6:
    return (int)strlen(s); // 4 paths: each length
  case 7:
    return strchr("xy", s[0]) != 0; // 4 paths: 'x', 'y', the terminator, none
  case 8:
    return memcmp(word, "ab", 3) == 0; // 2 paths: the symbolic byte decides
  default:
    free(heap);
    return 0;
  }
}
// CAIRN-VARIANT: no-native --search dfs --no-native-strings
// CAIRN-VARIANT: full-libc --search dfs --libc full --all-tests
