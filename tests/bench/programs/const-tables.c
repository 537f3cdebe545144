// Symbolic reads of large constant tables: a 64 KiB byte table at a 16-bit index, and a CRC32
// table (256 four-byte entries) read at the running CRC's low byte over four symbolic bytes,
// then inverted: the one input whose CRC32 is 0x12345678. 4 paths.
#include "cairn.h"

#include "../../e2e/programs/crc32_table.h"

#define B(i) (unsigned char)(((i) * 2654435761u) >> 13)
#define B8(i) B(i), B(i + 1), B(i + 2), B(i + 3), B(i + 4), B(i + 5), B(i + 6), B(i + 7)
#define B64(i) B8(i), B8(i + 8), B8(i + 16), B8(i + 24), B8(i + 32), B8(i + 40), B8(i + 48), B8(i + 56)
#define B512(i) B64(i), B64(i + 64), B64(i + 128), B64(i + 192), B64(i + 256), B64(i + 320), B64(i + 384), B64(i + 448)
#define B4K(i) B512(i), B512(i + 512), B512(i + 1024), B512(i + 1536), B512(i + 2048), B512(i + 2560), B512(i + 3072), B512(i + 3584)
#define B32K(i) B4K(i), B4K(i + 4096), B4K(i + 8192), B4K(i + 12288), B4K(i + 16384), B4K(i + 20480), B4K(i + 24576), B4K(i + 28672)
static const unsigned char bytes[65536] = {B32K(0), B32K(32768)};

int main(void) {
  unsigned short i;
  unsigned char b[4];
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(b, sizeof b, "b");
  int n = 0;
  if (bytes[i] == 0x5a)
    n = 1;
  unsigned int crc = 0xffffffffu;
  for (int k = 0; k < 4; ++k)
    crc = crc_table[(crc ^ b[k]) & 0xff] ^ (crc >> 8);
  if ((crc ^ 0xffffffffu) == 0x12345678u)
    n += 2;
  return n;
}
