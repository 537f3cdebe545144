// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=6 paths_partial=0 tests=6
//
// A switch on a symbolic char whose case values share targets: the five vowels one block, the
// ten digits another, three blank characters a third, 'x' alone, and '#' and '!' listed with
// the default (clang -O0 gives those two labels a block of their own that falls into the
// default's). As KLEE does, the engine forks once per distinct target (on the disjunction of
// its case values), not once per case value: vowels, digits, blanks, 'x', '#'/'!' and the
// default are 6 paths (one per case value would be 5 + 10 + 3 + 1 + 2 + 1 = 22). Each path
// checks its char without branching.
#include "cairn.h"

int main(void) {
  char c;
  klee_make_symbolic(&c, sizeof c, "c");
  int kind;
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u':
    kind = 1;
    break;
  case '0': case '1': case '2': case '3': case '4':
  case '5': case '6': case '7': case '8': case '9':
    kind = 2;
    break;
  case ' ': case '\t': case '\n':
    kind = 3;
    break;
  case 'x':
    kind = 4;
    break;
  case '#': case '!':
  default:
    kind = 0;
    break;
  }
  int vowel = (c == 'a') | (c == 'e') | (c == 'i') | (c == 'o') | (c == 'u');
  int digit = (c >= '0') & (c <= '9');
  int blank = (c == ' ') | (c == '\t') | (c == '\n');
  if (kind == 1)
    klee_assert(vowel);
  if (kind == 2)
    klee_assert(digit);
  if (kind == 3)
    klee_assert(blank);
  if (kind == 4)
    klee_assert(c == 'x');
  if (kind == 0)
    klee_assert(!vowel & !digit & !blank & (c != 'x'));
  return kind;
}
