/* Aligned heap blocks: `cairn replay` links the program's memalign, posix_memalign,
 * aligned_alloc, valloc and pvalloc here (--wrap), with the rules the analysis has
 * (runtime/lib/libc-memalign.c: glibc's, where AddressSanitizer's differ, as for an alignment
 * that is no power of two) and its limit, no alignment over 2^31 (the engine's
 * kMaxObjectAlignment). A block of no bytes is one poisoned byte, as heap.c's, and every block
 * is tracked as heap.c's are. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "replay.h"

void *__real_memalign(size_t alignment, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_memalign(size_t alignment, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);
int __wrap_posix_memalign(void **result, size_t alignment, size_t size);
void *__wrap_valloc(size_t size);
void *__wrap_pvalloc(size_t size);

extern void __asan_poison_memory_region(void const volatile *begin, size_t size)
    __attribute__((weak));

#define MALLOC_ALIGNMENT 16
#define MAX_ALIGNMENT ((size_t)1 << 31)
#define PAGE_SIZE_ 4096

static void *alloc_failed(int error) {
  errno = error;
  return NULL;
}

/* glibc's _mid_memalign: malloc's alignment for a small one, the next power of two for one
 * that is none, EINVAL for one above SIZE_MAX / 2 + 1. */
static void *aligned_block(size_t alignment, size_t size) {
  if (alignment > SIZE_MAX / 2 + 1)
    return alloc_failed(EINVAL);
  if (alignment <= MALLOC_ALIGNMENT) {
    void *p = __wrap_malloc(size);
    return p ? p : alloc_failed(ENOMEM);
  }
  size_t power = 2 * MALLOC_ALIGNMENT;
  while (power < alignment)
    power <<= 1;
  if (power > MAX_ALIGNMENT)
    return alloc_failed(ENOMEM);
  void *p = __real_memalign(power, size ? size : 1);
  if (!p)
    return alloc_failed(ENOMEM);
  if (!size && __asan_poison_memory_region)
    __asan_poison_memory_region(p, 1);
  cairn_replay_heap_track(p); /* the program's, for the checks at its end (heap.c) */
  return p;
}

void *__wrap_memalign(size_t alignment, size_t size) { return aligned_block(alignment, size); }

void *__wrap_aligned_alloc(size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)))
    return alloc_failed(EINVAL);
  return aligned_block(alignment, size);
}

int __wrap_posix_memalign(void **result, size_t alignment, size_t size) {
  size_t words = alignment / sizeof(void *);
  if (alignment % sizeof(void *) || words == 0 || (words & (words - 1)))
    return EINVAL;
  void *p = aligned_block(alignment, size);
  if (!p)
    return ENOMEM;
  *result = p;
  return 0;
}

void *__wrap_valloc(size_t size) { return aligned_block(PAGE_SIZE_, size); }

void *__wrap_pvalloc(size_t size) {
  if (size > SIZE_MAX - (PAGE_SIZE_ - 1))
    return alloc_failed(ENOMEM);
  return aligned_block(PAGE_SIZE_, (size + PAGE_SIZE_ - 1) & ~(size_t)(PAGE_SIZE_ - 1));
}
