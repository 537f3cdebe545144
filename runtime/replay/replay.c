/* libcairn-replay.a: the klee_* intrinsics implemented natively, for `cairn replay`.
 *
 * The program is compiled natively against runtime/include and linked with this archive (which
 * also holds the runtime's SV-COMP and __assert_fail code, compiled from the same sources as the
 * bitcode). The inputs come from the .ktest file named by the environment variable KTEST_FILE:
 * each klee_make_symbolic (and klee_int, klee_range, __VERIFIER_nondet_*) takes the next object
 * of the test, in order, as the analysed run made them.
 *
 * Exit statuses that tell a replay problem from the program's own behaviour (replay.h):
 *   3  the test cannot be used: KTEST_FILE unset or unreadable, malformed, out of objects, or an
 *      object whose size differs from the one the program asks for;
 *   4  the run left the test's path (a klee_range value out of its range);
 *   5  the analysis's user errors: a klee_assume that does not hold, a klee_make_symbolic over
 *      memory that is not one object or is read-only.
 * klee_report_error prints "ERROR: file:line: message [suffix]" (klee_abort "ERROR: klee_abort
 * called") and abort()s (SIGABRT), as a failed assert does natively.
 *
 * KTEST format (KLEE's, version 1 to 3; every integer a big-endian uint32):
 *   "KTEST" version numArgs {len bytes}*numArgs [version >= 2: symArgvs symArgvLen]
 *   numObjects {nameLen name numBytes bytes}*numObjects
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn.h"
#include "replay.h"

/* AddressSanitizer's, when the program is built with it (as `cairn replay` builds it). */
extern void *__asan_region_is_poisoned(void *begin, size_t size) __attribute__((weak));

typedef struct {
  char *name;
  uint32_t size;
  unsigned char *bytes;
} cairn_object;

static cairn_object *objects;
static uint32_t num_objects;
static uint32_t next_object;
static const char *test_path;
static int loaded;

__attribute__((noreturn, format(printf, 1, 2))) static void bad_test(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "cairn-replay: ");
  if (test_path)
    fprintf(stderr, "%s: ", test_path);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  cairn_replay_skip_exit_checks();
  exit(CAIRN_EXIT_BAD_TEST);
}

static uint32_t read_u32(FILE *f, const char *what) {
  unsigned char b[4];
  if (fread(b, 1, 4, f) != 4)
    bad_test("truncated file (reading %s)", what);
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

static unsigned char *read_bytes(FILE *f, uint32_t n, const char *what, int terminate) {
  unsigned char *p = malloc((size_t)n + 1);
  if (!p)
    bad_test("out of memory (reading %s of %u bytes)", what, n);
  cairn_replay_heap_forget(p); /* the library's, not the program's */
  if (n && fread(p, 1, n, f) != n)
    bad_test("truncated file (reading %s of %u bytes)", what, n);
  if (terminate)
    p[n] = 0;
  return p;
}

static void load_test(void) {
  if (loaded)
    return;
  loaded = 1;
  test_path = getenv("KTEST_FILE");
  if (!test_path || !*test_path) {
    test_path = 0;
    bad_test("KTEST_FILE is not set: name the .ktest file whose inputs to replay");
  }
  FILE *f = fopen(test_path, "rb");
  if (!f)
    bad_test("cannot open the file");
  char magic[5];
  if (fread(magic, 1, 5, f) != 5 || (memcmp(magic, "KTEST", 5) && memcmp(magic, "BOUT\n", 5)))
    bad_test("not a .ktest file (no KTEST magic)");
  uint32_t version = read_u32(f, "the version");
  if (version < 1 || version > 3)
    bad_test("unsupported ktest version %u (1 to 3 are)", version);
  uint32_t num_args = read_u32(f, "the argument count");
  for (uint32_t i = 0; i < num_args; ++i) {
    uint32_t len = read_u32(f, "an argument's length");
    free(read_bytes(f, len, "an argument", 1));
  }
  if (version >= 2) {
    (void)read_u32(f, "symArgvs");
    (void)read_u32(f, "symArgvLen");
  }
  num_objects = read_u32(f, "the object count");
  if (num_objects > (1u << 24))
    bad_test("implausible object count %u", num_objects);
  objects = calloc(num_objects ? num_objects : 1, sizeof *objects);
  if (!objects)
    bad_test("out of memory");
  cairn_replay_heap_forget(objects);
  for (uint32_t i = 0; i < num_objects; ++i) {
    uint32_t len = read_u32(f, "an object's name length");
    objects[i].name = (char *)read_bytes(f, len, "an object's name", 1);
    objects[i].size = read_u32(f, "an object's size");
    objects[i].bytes = read_bytes(f, objects[i].size, "an object's bytes", 0);
  }
  fclose(f);
  /* A test of the full libc's POSIX model starts with the model's inputs (arguments, files,
   * stdin, ending with model_version), which `cairn replay` turned into real ones: the
   * program's own inputs follow them. */
  for (uint32_t i = 0; i < num_objects; ++i)
    if (strcmp(objects[i].name, "model_version") == 0)
      next_object = i + 1;
}

/* The next object of the test, which must have nbytes bytes. */
static const cairn_object *take_object(size_t nbytes, const char *name) {
  load_test();
  const char *shown = name ? name : "(unnamed)";
  if (next_object >= num_objects)
    bad_test("the program asks for input '%s' (%zu bytes) but the test has only %u objects",
             shown, nbytes, num_objects);
  const cairn_object *o = &objects[next_object++];
  /* A symbolic-size object's input holds its whole capacity; the program asks for its size. */
  if (o->size < nbytes)
    bad_test("size mismatch for input %u '%s': the program asks for %zu bytes, the test's object "
             "'%s' has %u",
             next_object - 1, shown, nbytes, o->name, o->size);
  return o;
}

/* Whether the first and the last byte of [addr, addr + nbytes) lie in writable mappings. */
static int writable(const void *addr, size_t nbytes) {
  char first[5], last[5];
  cairn_replay_mapping_of((uintptr_t)addr, first);
  cairn_replay_mapping_of((uintptr_t)addr + nbytes - 1, last);
  return first[1] == 'w' && last[1] == 'w';
}

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
  /* The engine refuses memory that is not inside one object before it takes an input, so the
   * test holds no object for this call. AddressSanitizer's redzones around every object tell the
   * same natively. */
  if (!addr || (nbytes && __asan_region_is_poisoned && __asan_region_is_poisoned(addr, nbytes)))
    cairn_replay_error("user", "make-symbolic",
                       "klee_make_symbolic: the memory is not one object of that size ('%s', "
                       "%zu bytes)",
                       name ? name : "(unnamed)", nbytes);
  /* Nor does it take one for a read-only object (a const global, a string literal): natively,
   * memory in a mapping that cannot be written. */
  if (nbytes && !writable(addr, nbytes))
    cairn_replay_error("user", "make-symbolic",
                       "klee_make_symbolic: cannot make read-only memory symbolic ('%s', %zu bytes)",
                       name ? name : "(unnamed)", nbytes);
  const cairn_object *o = take_object(nbytes, name);
  if (nbytes)
    memcpy(addr, o->bytes, nbytes);
}

/* The test's inputs satisfy every assumption the analysis added to their path, so a false one
 * natively is one the analysis found provably false there: its user error. */
void klee_assume(uintptr_t cond) {
  if (!cond)
    cairn_replay_error("user", "assume", "klee_assume: the condition is false");
}

int klee_int(const char *name) {
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  return x;
}

/* The same inputs as the bitcode runtime's klee_range (runtime/lib/klee.c). */
int klee_range(int start, int end, const char *name) {
  if (start >= end)
    klee_report_error(0, 0, "invalid klee_range: start >= end", "user.err");
  if (start + 1 == end)
    return start;
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  if (x < start || x >= end)
    cairn_replay_diverged("klee_range value out of range");
  return x;
}

void klee_abort(void) {
  fflush(stdout);
  fprintf(stderr, "ERROR: klee_abort called\n");
  fflush(stderr);
  abort();
}

/* The engine ends such a path without checking the heap. */
void klee_silent_exit(int status) {
  cairn_replay_skip_exit_checks();
  exit(status);
}

/* "ERROR: file:line: message [suffix]"; without a file or line "ERROR: message [suffix]". The
 * suffix names the error's type as in the analysis ("assert.err", "user.err", ...). */
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  fflush(stdout);
  if (file && line)
    fprintf(stderr, "ERROR: %s:%d: %s", file, line, message ? message : "");
  else
    fprintf(stderr, "ERROR: %s", message ? message : "");
  if (suffix && *suffix)
    fprintf(stderr, " [%s]", suffix);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

unsigned klee_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}

int32_t klee_get_value_i32(int32_t expr) { return expr; }
int64_t klee_get_value_i64(int64_t expr) { return expr; }
long klee_get_valuel(long expr) { return expr; }
long long klee_get_valuell(long long expr) { return expr; }

float klee_get_valuef(float expr) { return expr; }
double klee_get_valued(double expr) { return expr; }

/* The same inputs as the bitcode runtime's klee_choose (runtime/lib/klee.c). */
uintptr_t klee_choose(uintptr_t n) {
  uintptr_t x;
  klee_make_symbolic(&x, sizeof x, "klee_choose");
  if (x >= n)
    klee_silent_exit(0);
  return x;
}

int klee_is_replay(void) { return 1; }

void klee_warning(const char *message) { fprintf(stderr, "KLEE: WARNING: %s\n", message ? message : ""); }

void klee_warning_once(const char *message) {
  /* Once per message text is what a native run can tell apart (not the call site). */
  static const char *seen[64];
  static unsigned count;
  for (unsigned i = 0; i < count; ++i)
    if (seen[i] == message)
      return;
  if (count < 64)
    seen[count++] = message;
  klee_warning(message);
}

void klee_print_expr(const char *message, ...) {
  va_list args;
  va_start(args, message);
  long value = va_arg(args, long);
  va_end(args);
  fprintf(stderr, "klee_print_expr: %s: %ld\n", message ? message : "", value);
}

void klee_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

void klee_open_merge(void) {}
void klee_close_merge(void) {}
