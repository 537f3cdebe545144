/* KLEE's API beyond the inputs, natively (the engine's side: KleeStateFunctions.cpp).
 *
 * A native run is one path, so what steers the analysis does nothing here: klee_set_forking,
 * klee_mark_global, klee_posix_prefer_cex. klee_alias_function cannot redirect the calls of a
 * compiled program: it says so on stderr and does nothing (programs whose outcome depends on an
 * alias cannot be replayed). The memory functions ask AddressSanitizer, whose reports `cairn
 * replay` already classifies as the engine does:
 *   klee_check_memory_access  the first poisoned byte of the range, reported by AddressSanitizer
 *                             as an access of it would be (a range of no bytes: not checked);
 *                             an address in the first page or in no mapping, by this library;
 *   klee_get_obj_size         checked as a one-byte access, then the size of the heap block, the
 *                             stack variable or the global AddressSanitizer places the pointer
 *                             in, or of a fixed object;
 *   klee_define_fixed_object  the pages that hold the object mapped at their fixed address, all
 *                             but the object poisoned; an object meeting another fixed one, of
 *                             no bytes or in the first page is the engine's user error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cairn.h"
#include "replay.h"

/* AddressSanitizer's interface, when the program is built with it. */
extern void *__asan_region_is_poisoned(void *begin, size_t size) __attribute__((weak));
extern void __asan_report_error(void *pc, void *bp, void *sp, void *addr, int is_write, size_t size)
    __attribute__((weak));
extern const char *__asan_locate_address(void *addr, char *name, size_t name_size, void **region_address,
                                         size_t *region_size) __attribute__((weak));
extern void __asan_poison_memory_region(void const volatile *begin, size_t size) __attribute__((weak));
extern void __asan_unpoison_memory_region(void const volatile *begin, size_t size) __attribute__((weak));
extern void __sanitizer_print_stack_trace(void) __attribute__((weak));

enum { NULL_PAGE = 4096, MAX_FIXED = 64 };

void klee_set_forking(unsigned enable) { (void)enable; }
void klee_mark_global(void *object) { (void)object; }
void klee_posix_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

void klee_alias_function(const char *fn, const char *alias) {
  fflush(stdout);
  fprintf(stderr, "cairn-replay: klee_alias_function(\"%s\", \"%s\"): a native run cannot redirect calls\n",
          fn ? fn : "", alias ? alias : "");
}

void klee_stack_trace(void) {
  fflush(stdout);
  if (__sanitizer_print_stack_trace) { /* symbolized: function, file:line */
    __sanitizer_print_stack_trace();
    return;
  }
  void *frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
}

int klee_get_errno(void) { return errno; }

void klee_print_range(const char *name, int arg) {
  fprintf(stderr, "klee_print_range: %s == %d\n", name ? name : "", arg);
}

/* [address, address + size) as an access by the program would find it: the engine's error if
 * it is not all inside objects. Reports through AddressSanitizer where it can tell the kind. */
__attribute__((noinline)) static void check_region(const char *who, const void *address, size_t size) {
  uintptr_t a = (uintptr_t)address;
  if (a < NULL_PAGE)
    cairn_replay_error("ptr", "null", "%s: null pointer %p", who, address);
  if (a + size - 1 < a)
    cairn_replay_error("ptr", "out-of-bounds", "%s: [%p, +%zu) wraps around", who, address, size);
  char first[5], last[5];
  cairn_replay_mapping_of(a, first);
  cairn_replay_mapping_of(a + size - 1, last);
  if (first[0] != 'r' || last[0] != 'r')
    cairn_replay_error("ptr", "out-of-bounds", "%s: [%p, +%zu) is not mapped memory", who, address, size);
  if (!__asan_region_is_poisoned)
    return;
  void *bad = __asan_region_is_poisoned((void *)address, size);
  if (!bad)
    return;
  fflush(stdout);
  if (__asan_report_error) /* a heap-buffer-overflow, heap-use-after-free, ... report */
    __asan_report_error(__builtin_return_address(0), __builtin_frame_address(0), __builtin_frame_address(0),
                        bad, 0, 1);
  cairn_replay_error("ptr", "out-of-bounds", "%s: %p is not inside an object", who, bad);
}

void klee_check_memory_access(const void *address, size_t size) {
  if (size)
    check_region("klee_check_memory_access", address, size);
}

static struct {
  uintptr_t address;
  size_t size;
} fixed[MAX_FIXED];
static unsigned fixed_count;

/* Whether a fixed object's pages hold the page at `page` (it is mapped already). */
static int page_mapped(uintptr_t page, uintptr_t page_size) {
  for (unsigned i = 0; i < fixed_count; ++i) {
    uintptr_t first = fixed[i].address & ~(page_size - 1);
    uintptr_t end = fixed[i].address + fixed[i].size;
    if (page >= first && page < end)
      return 1;
  }
  return 0;
}

void klee_define_fixed_object(void *addr, size_t nbytes) {
  uintptr_t a = (uintptr_t)addr;
  if (!nbytes)
    cairn_replay_error("user", "fixed-object", "klee_define_fixed_object: an object of no bytes at %p", addr);
  if (a + nbytes < a)
    cairn_replay_error("user", "fixed-object", "klee_define_fixed_object: [%p, +%zu) wraps around", addr, nbytes);
  if (a < NULL_PAGE)
    cairn_replay_error("user", "fixed-object", "klee_define_fixed_object: %p meets the null page", addr);
  for (unsigned i = 0; i < fixed_count; ++i)
    if (a < fixed[i].address + fixed[i].size && fixed[i].address < a + nbytes)
      cairn_replay_error("user", "fixed-object", "klee_define_fixed_object: [%p, +%zu) meets the fixed object at %p",
                         addr, nbytes, (void *)fixed[i].address);
  if (fixed_count == MAX_FIXED)
    cairn_replay_diverged("klee_define_fixed_object: more fixed objects than the replay library keeps");
  const uintptr_t page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (uintptr_t page = a & ~(page_size - 1); page < a + nbytes; page += page_size) {
    if (page_mapped(page, page_size))
      continue;
    void *got = mmap((void *)page, page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                     -1, 0);
    if (got != (void *)page) {
      char what[160];
      snprintf(what, sizeof what, "klee_define_fixed_object: the page at %p cannot be mapped natively (%s)",
               (void *)page, strerror(errno));
      cairn_replay_diverged(what);
    }
    if (__asan_poison_memory_region) /* only the objects are addressable, as in the engine */
      __asan_poison_memory_region((void *)page, page_size);
  }
  if (__asan_unpoison_memory_region)
    __asan_unpoison_memory_region(addr, nbytes);
  fixed[fixed_count].address = a;
  fixed[fixed_count].size = nbytes;
  ++fixed_count;
}

size_t klee_get_obj_size(void *ptr) {
  check_region("klee_get_obj_size", ptr, 1);
  uintptr_t a = (uintptr_t)ptr;
  for (unsigned i = 0; i < fixed_count; ++i)
    if (a - fixed[i].address < fixed[i].size)
      return fixed[i].size;
  if (__asan_locate_address) {
    char name[64];
    void *start = 0;
    size_t size = 0;
    const char *kind = __asan_locate_address(ptr, name, sizeof name, &start, &size);
    if (kind && (!strcmp(kind, "heap") || !strcmp(kind, "stack") || !strcmp(kind, "global")) &&
        a - (uintptr_t)start < size)
      return size;
  }
  char what[120];
  snprintf(what, sizeof what, "klee_get_obj_size: the object at %p is not one a native run can measure", ptr);
  cairn_replay_diverged(what);
}
