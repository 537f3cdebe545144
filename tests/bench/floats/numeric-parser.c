// A decimal number parser in the style of strtod's fast path, on N symbolic characters: an
// optional sign, digits, an optional fraction, then the value classified. The float work is
// on symbolic values: every digit converted, scaled and added in double.
#include "cairn.h"

#ifndef N
#define N 4
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, N, "s");
  s[N] = 0;
  int i = 0, digits = 0;
  double sign = 1.0, v = 0.0, scale = 1.0;
  if (s[i] == '-') {
    sign = -1.0;
    ++i;
  } else if (s[i] == '+') {
    ++i;
  }
  while (s[i] >= '0' && s[i] <= '9') {
    v = v * 10.0 + (s[i] - '0');
    ++i;
    ++digits;
  }
  if (s[i] == '.') {
    ++i;
    while (s[i] >= '0' && s[i] <= '9') {
      scale /= 10.0;
      v += (s[i] - '0') * scale;
      ++i;
      ++digits;
    }
  }
  if (!digits || s[i])
    return 0; // not a number
  v *= sign;
  if (v > 99.5)
    return 1;
  if (v < -0.25)
    return 2;
  if (v == 0.5)
    return 3;
  return 4;
}
