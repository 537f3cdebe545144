/* Writes a .ktest file (KLEE's format, version 3) for the runtime's tests.
 *   ktest-write OUT.ktest [NAME=HEXBYTES]...
 * Each argument is one object, its bytes in hex in memory order ("2a000000" is the int 42 on a
 * little-endian machine; an empty value is a zero-byte object). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_u32(FILE *f, uint32_t v) {
  unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                        (unsigned char)v};
  fwrite(b, 1, 4, f);
}

static void put_str(FILE *f, const char *s, size_t n) {
  put_u32(f, (uint32_t)n);
  fwrite(s, 1, n, f);
}

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.ktest [NAME=HEXBYTES]...\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "wb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fwrite("KTEST", 1, 5, f);
  put_u32(f, 3);
  put_u32(f, 1); /* the program's arguments: just its name */
  put_str(f, "program", 7);
  put_u32(f, 0); /* symArgvs */
  put_u32(f, 0); /* symArgvLen */
  put_u32(f, (uint32_t)(argc - 2));
  for (int i = 2; i < argc; ++i) {
    const char *eq = strchr(argv[i], '=');
    if (!eq) {
      fprintf(stderr, "ktest-write: expected NAME=HEXBYTES, got '%s'\n", argv[i]);
      return 2;
    }
    const char *hex = eq + 1;
    size_t len = strlen(hex);
    if (len % 2) {
      fprintf(stderr, "ktest-write: odd number of hex digits in '%s'\n", argv[i]);
      return 2;
    }
    put_str(f, argv[i], (size_t)(eq - argv[i]));
    put_u32(f, (uint32_t)(len / 2));
    for (size_t j = 0; j < len; j += 2) {
      int hi = hexval(hex[j]), lo = hexval(hex[j + 1]);
      if (hi < 0 || lo < 0) {
        fprintf(stderr, "ktest-write: bad hex digit in '%s'\n", argv[i]);
        return 2;
      }
      fputc(hi * 16 + lo, f);
    }
  }
  if (fclose(f)) {
    perror(argv[1]);
    return 2;
  }
  return 0;
}
