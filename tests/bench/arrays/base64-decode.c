// A base64 decoder's reverse table: `signed char decode[256]` (-1 for a byte outside the
// alphabet) read at each of LEN symbolic characters. Invalid characters end the path (one-byte
// queries); each group of four valid characters gives three bytes built from four table reads,
// and the paths fork on those bytes (whether the first two of each group are printable, the
// order of neighbouring bytes), so those queries combine several symbolic-index reads of the
// byte table.
//   -DLEN=n   the number of characters, a multiple of 4 (default 8)
#include "cairn.h"

#ifndef LEN
#define LEN 8
#endif

static signed char decode[256];

static void make_decode(void) {
  const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int c = 0; c < 256; ++c)
    decode[c] = -1;
  for (int v = 0; v < 64; ++v)
    decode[(unsigned char)alphabet[v]] = (signed char)v;
}

int main(void) {
  make_decode();
  unsigned char text[LEN];
  klee_make_symbolic(text, sizeof text, "text");
  unsigned char out[LEN / 4 * 3];
  int n = 0;
  for (int i = 0; i < LEN; i += 4) {
    unsigned group = 0;
    for (int k = 0; k < 4; ++k) {
      int v = decode[text[i + k]];
      if (v < 0)
        return -1;
      group = (group << 6) | (unsigned)v;
    }
    out[n++] = (unsigned char)(group >> 16);
    out[n++] = (unsigned char)(group >> 8);
    out[n++] = (unsigned char)group;
  }
  int score = 0;
  for (int k = 0; k < n; ++k) {
    if (k % 3 != 2 && out[k] >= 0x20 && out[k] < 0x7f)
      score++;
    if (k > 0 && out[k] < out[k - 1])
      score += 16;
  }
  return score;
}
