// A lexer's character-class table: `cclass[256]`, one byte per character, read at each
// symbolic input character. A token boundary is a change of class between neighbouring
// characters, so each branch compares two reads of the byte table at two symbolic indices, and
// the path condition links all the characters (the byte-domain shortcut for one-byte queries
// does not apply). At each boundary the path forks again on the new token's class.
//   -DLEN=n   the input length (default 5)
#include "cairn.h"

#ifndef LEN
#define LEN 5
#endif

enum { SPACE, LETTER, DIGIT, PUNCT, QUOTE, OTHER };

static unsigned char cclass[256];

static void make_classes(void) {
  for (int c = 0; c < 256; ++c) {
    unsigned char k = OTHER;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
      k = SPACE;
    else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
      k = LETTER;
    else if (c >= '0' && c <= '9')
      k = DIGIT;
    else if (c == '"' || c == '\'')
      k = QUOTE;
    else if (c > ' ' && c < 127)
      k = PUNCT;
    cclass[c] = k;
  }
}

int main(void) {
  make_classes();
  unsigned char text[LEN];
  klee_make_symbolic(text, sizeof text, "text");
  int words = 0, numbers = 0, puncts = 0, strange = 0;
  unsigned char prev = SPACE;
  for (int i = 0; i < LEN; ++i) {
    unsigned char cls = cclass[text[i]];
    if (cls != prev) {
      if (cls == LETTER)
        words++;
      else if (cls == DIGIT)
        numbers++;
      else if (cls == PUNCT || cls == QUOTE)
        puncts++;
      else if (cls == OTHER)
        strange++;
    }
    prev = cls;
  }
  return words + 8 * numbers + 64 * puncts + 512 * strange;
}
