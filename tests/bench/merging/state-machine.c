// A tokenizer's state machine over N symbolic characters: the state (a small concrete number on
// each path) selects what the next character is compared with, so states that differ in it do
// not merge usefully (the merged state would make every later comparison a query over an ite).
// QCE finds `state` hot and keeps them apart; merging everything (--qce-alpha 1e300) merges
// them anyway, and the queries grow.
//   -DN=n   characters (default 9)
#include "cairn.h"

#ifndef N
#define N 9
#endif

int main(void) {
  char in[N];
  klee_make_symbolic(in, sizeof in, "in");
  int state = 0, tokens = 0;
  for (int i = 0; i < N; ++i) {
    char c = in[i];
    switch (state) {
    case 0: // between tokens
      if (c >= 'a' && c <= 'z') state = 1;
      else if (c >= '0' && c <= '9') state = 2;
      else if (c == '"') state = 3;
      break;
    case 1: // a word
      if (!(c >= 'a' && c <= 'z')) { state = 0; ++tokens; }
      break;
    case 2: // a number
      if (!(c >= '0' && c <= '9')) { state = 0; ++tokens; }
      break;
    default: // a string
      if (c == '"') { state = 0; ++tokens; }
      else if (c == '\\') state = 4;
      if (state == 4) state = 3;
      break;
    }
  }
  return tokens;
}
