// Word table at a symbolic index: CRC-32 (reflected, polynomial 0xEDB88320) of LEN symbolic
// bytes through a 256-entry table of 4-byte words built at start-up. Each step reads the table
// at (crc ^ byte) & 0xff, an index that depends on every earlier read, and the path forks on
// the top bit of the running CRC: each branch query holds a chain of nested symbolic-index
// reads of the table. 2^LEN paths, and two more where the CRC can equal a fixed value.
//   -DLEN=n   the message length (default 6)
#include "cairn.h"

#ifndef LEN
#define LEN 6
#endif

static unsigned table[256];

static void make_table(void) {
  for (unsigned n = 0; n < 256; ++n) {
    unsigned c = n;
    for (int k = 0; k < 8; ++k)
      c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    table[n] = c;
  }
}

int main(void) {
  unsigned char msg[LEN];
  klee_make_symbolic(msg, sizeof msg, "msg");
  make_table();
  unsigned crc = 0xffffffffu;
  int high = 0;
  for (int i = 0; i < LEN; ++i) {
    crc = table[(crc ^ msg[i]) & 0xffu] ^ (crc >> 8);
    if (crc & 0x80000000u)
      high++;
  }
  crc ^= 0xffffffffu;
  if (crc == 0xCBF43926u) // CRC-32's check value (that of "123456789")
    return 100 + high;
  return high;
}
