/* KLEE's API for programs built with `cairn cc` (native, against musl): linked into every
 * executable that calls it, so that a driver written for the engine builds and runs natively.
 * klee_make_symbolic takes the next object of the .ktest file named by KTEST_FILE (after the
 * POSIX model's inputs, which `cairn replay` made real), or zeros when there is none; a false
 * klee_assume ends the run as the replay's "diverged" (status 4); errors abort as the engine
 * reports them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn.h"

struct object {
  char *name;
  uint32_t size;
  unsigned char *bytes;
};

static struct object *objects;
static uint32_t count, next;
static int loaded;

static uint32_t read_u32(FILE *f) {
  unsigned char b[4];
  if (fread(b, 1, 4, f) != 4)
    return 0;
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void *read_bytes(FILE *f, uint32_t n, int terminate) {
  unsigned char *p = malloc((size_t)n + 1);
  if (!p || fread(p, 1, n, f) != n) {
    fprintf(stderr, "cairn-replay: the test file is truncated\n");
    exit(3);
  }
  p[n] = 0;
  (void)terminate;
  return p;
}

static void load(void) {
  loaded = 1;
  const char *path = getenv("KTEST_FILE");
  if (!path)
    return;
  FILE *f = fopen(path, "rb");
  char magic[5];
  if (!f || fread(magic, 1, 5, f) != 5 || memcmp(magic, "KTEST", 5) != 0) {
    fprintf(stderr, "cairn-replay: %s is not a .ktest file\n", path);
    exit(3);
  }
  uint32_t version = read_u32(f);
  for (uint32_t args = read_u32(f); args; --args)
    free(read_bytes(f, read_u32(f), 1));
  if (version >= 2) {
    read_u32(f);
    read_u32(f);
  }
  count = read_u32(f);
  objects = calloc(count ? count : 1, sizeof *objects);
  for (uint32_t i = 0; i < count; ++i) {
    objects[i].name = read_bytes(f, read_u32(f), 1);
    objects[i].size = read_u32(f);
    objects[i].bytes = read_bytes(f, objects[i].size, 0);
  }
  fclose(f);
  for (uint32_t i = 0; i < count; ++i)
    if (strcmp(objects[i].name, "model_version") == 0)
      next = i + 1;
}

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
  if (!loaded)
    load();
  if (!objects) {
    memset(addr, 0, nbytes);
    return;
  }
  if (next >= count || objects[next].size != nbytes) {
    fprintf(stderr, "cairn-replay: the program asks for input '%s' (%zu bytes), which the test does not hold next\n",
            name ? name : "", nbytes);
    exit(4);
  }
  memcpy(addr, objects[next++].bytes, nbytes);
}

void klee_assume(uintptr_t condition) {
  if (!condition) {
    fprintf(stderr, "cairn-replay: klee_assume is false: the run left the test's path\n");
    exit(4);
  }
}

int klee_int(const char *name) {
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  return x;
}

int klee_range(int start, int end, const char *name) {
  if (start + 1 == end)
    return start;
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  klee_assume((unsigned)x - (unsigned)start < (unsigned)end - (unsigned)start);
  return x;
}

void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  fprintf(stderr, "ERROR: %s:%d: %s [%s]\n", file ? file : "", line, message, suffix);
  abort();
}

void klee_abort(void) {
  fprintf(stderr, "ERROR: klee_abort called\n");
  abort();
}

void klee_silent_exit(int status) { exit(status); }
unsigned klee_is_symbolic(uintptr_t x) { return 0; }
int klee_is_replay(void) { return 1; }
void klee_prefer_cex(void *object, uintptr_t condition) {}
void klee_posix_prefer_cex(void *object, uintptr_t condition) {}
void klee_mark_global(void *object) {}
void klee_warning(const char *message) { fprintf(stderr, "KLEE: WARNING: %s\n", message); }
void klee_warning_once(const char *message) { klee_warning(message); }
int32_t klee_get_value_i32(int32_t x) { return x; }
int64_t klee_get_value_i64(int64_t x) { return x; }
long klee_get_valuel(long x) { return x; }
