// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: assert assertion-failure 32
// EXPECT-ERROR: assert assertion-failure 35
//
// Symbolic reads of large constant tables are quick queries: a CRC32 table (256 four-byte
// entries) read twice at bytes of the running CRC, and a 4 KiB byte table at a 16-bit index.
// Each assertion fails for exactly the inputs the solver must find through the tables (the
// replay checks natively that they do): "ok", whose CRC32 is 0x79dcdd47, and an index whose
// byte is 0x5a (16 of them). Paths: the CRC assertion fails or not (1 error path); then
// i >= 4096 or not; then the byte assertion fails or not: 1 + 1 + 2 = 4 paths, 4 tests.
#include "cairn.h"

#include "crc32_table.h"

#define B(i) (unsigned char)((i) * 167u + ((i) >> 3) * 31u + 7u)
#define B8(i) B(i), B(i + 1), B(i + 2), B(i + 3), B(i + 4), B(i + 5), B(i + 6), B(i + 7)
#define B64(i) B8(i), B8(i + 8), B8(i + 16), B8(i + 24), B8(i + 32), B8(i + 40), B8(i + 48), B8(i + 56)
#define B512(i) B64(i), B64(i + 64), B64(i + 128), B64(i + 192), B64(i + 256), B64(i + 320), B64(i + 384), B64(i + 448)
static const unsigned char bytes[4096] = {
  B512(0), B512(512), B512(1024), B512(1536), B512(2048), B512(2560), B512(3072), B512(3584)
};

int main(void) {
  unsigned char b[2];
  unsigned short i;
  klee_make_symbolic(b, sizeof b, "b");
  klee_make_symbolic(&i, sizeof i, "i");
  unsigned int crc = 0xffffffffu;
  for (int k = 0; k < 2; ++k)
    crc = crc_table[(crc ^ b[k]) & 0xff] ^ (crc >> 8);
  klee_assert((crc ^ 0xffffffffu) != 0x79dcdd47u);
  if (i >= 4096)
    return 0;
  klee_assert(bytes[i] != 0x5a);
  return 1;
}
