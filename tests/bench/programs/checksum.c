#include "cairn.h"
int main(void) {
  unsigned sum = 0;
  for (unsigned i = 0; i < 2000000; ++i)
    sum = (sum * 31u) ^ (i + (sum >> 3));
  return (int)(sum & 1);
}
