// A keyword lookup as a lexer does it: a word of symbolic characters (its end found through an
// `is_word[256]` byte table) is hashed with Pearson's hash, a chain of reads of a 256-byte
// permutation table at the previous hash xor the next character, and the hash selects a row of
// a string table `kw[32][8]`. The word is compared with that row character by character, so
// those reads have a symbolic row (a nest of byte-table reads) and the path forks at each
// character; a miss probes the next row once. The input holds WORDS words of up to WLEN
// characters.
//   -DWORDS=n   (default 2)   -DWLEN=n   (default 5)
#include "cairn.h"

#ifndef WORDS
#define WORDS 2
#endif
#ifndef WLEN
#define WLEN 5
#endif
#define ROWS 32

static const char *const keywords[] = {"do", "if", "for", "int", "auto", "case", "char", "else",
                                       "enum", "goto", "long", "void", "break", "const", "while"};
static unsigned char is_word[256], perm[256];
static char kw[ROWS][8];

// Pearson's hash: each character goes through the permutation table, xor-ed with the hash of
// the characters before it.
static unsigned hash(const unsigned char *w, unsigned len) {
  unsigned char h = (unsigned char)len;
  for (unsigned i = 0; i < len; ++i)
    h = perm[h ^ w[i]];
  return h % ROWS;
}

static void make_tables(void) {
  unsigned seed = 12345;
  for (int c = 0; c < 256; ++c) {
    is_word[c] = c >= 'a' && c <= 'z';
    perm[c] = (unsigned char)c;
  }
  for (int c = 255; c > 0; --c) { // a fixed shuffle
    seed = seed * 1103515245u + 12345u;
    unsigned j = (seed >> 8) % (unsigned)(c + 1);
    unsigned char t = perm[c];
    perm[c] = perm[j];
    perm[j] = t;
  }
  for (unsigned k = 0; k < sizeof keywords / sizeof *keywords; ++k) {
    const unsigned char *w = (const unsigned char *)keywords[k];
    unsigned len = 0;
    while (w[len])
      ++len;
    unsigned h = hash(w, len);
    while (kw[h][0])
      h = (h + 1) % ROWS;
    for (unsigned i = 0; i <= len; ++i)
      kw[h][i] = (char)w[i];
  }
}

// The keyword's row, or -1 for an identifier.
static int lookup(const unsigned char *w, unsigned len) {
  unsigned h = hash(w, len);
  for (int probe = 0; probe < 2; ++probe, h = (h + 1) % ROWS) {
    unsigned i = 0;
    while (i < len && (unsigned char)kw[h][i] == w[i])
      ++i;
    if (i == len && kw[h][len] == 0)
      return (int)h;
  }
  return -1;
}

int main(void) {
  make_tables();
  unsigned char text[WORDS][WLEN];
  klee_make_symbolic(text, sizeof text, "text");
  int keywords_seen = 0, identifiers = 0;
  for (int n = 0; n < WORDS; ++n) {
    unsigned len = 0;
    while (len < WLEN && is_word[text[n][len]])
      ++len;
    if (len == 0)
      continue;
    if (lookup(text[n], len) >= 0)
      keywords_seen++;
    else
      identifiers++;
  }
  return keywords_seen * 16 + identifiers;
}
