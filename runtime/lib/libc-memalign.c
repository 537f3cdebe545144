/* glibc's aligned allocation: memalign, posix_memalign, aligned_alloc, valloc and pvalloc, on
 * the engine's cairn_aligned_malloc, which places a heap object at a multiple of a power-of-two
 * alignment. Their blocks are heap objects as malloc's are: free frees them, realloc moves them
 * (to a block only malloc-aligned, as glibc's realloc does). The alignment and size rules and
 * errno are glibc's (its _mid_memalign; aligned_alloc as glibc 2.38 and C17, which refuse an
 * alignment that is no power of two). runtime/replay/heap.c gives a replayed run the same. */
#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

void *malloc(size_t size);                                 /* the engine's */
void *cairn_aligned_malloc(size_t alignment, size_t size); /* the engine's */
int *__errno_location(void);

#define CAIRN_EINVAL 22
#define CAIRN_ENOMEM 12
#define CAIRN_MALLOC_ALIGNMENT 16 /* what malloc's blocks have anyway */
#define CAIRN_PAGE_SIZE 4096

static void *cairn_alloc_failed(int error) {
  *__errno_location() = error;
  return 0;
}

/* glibc's _mid_memalign: a small alignment is malloc's; one that is no power of two is rounded
 * up to the next power of two; one above SIZE_MAX / 2 + 1 cannot be, and is invalid. */
static void *cairn_memalign(size_t alignment, size_t size) {
  if (alignment > SIZE_MAX / 2 + 1)
    return cairn_alloc_failed(CAIRN_EINVAL);
  void *p;
  if (alignment <= CAIRN_MALLOC_ALIGNMENT) {
    p = malloc(size);
  } else {
    size_t power = 2 * CAIRN_MALLOC_ALIGNMENT;
    while (power < alignment)
      power <<= 1;
    p = cairn_aligned_malloc(power, size);
  }
  return p ? p : cairn_alloc_failed(CAIRN_ENOMEM);
}

CAIRN_RT void *memalign(size_t alignment, size_t size) { return cairn_memalign(alignment, size); }

CAIRN_RT void *aligned_alloc(size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)))
    return cairn_alloc_failed(CAIRN_EINVAL);
  return cairn_memalign(alignment, size);
}

/* The error is the result; errno is left as the allocation set it, as glibc does. */
CAIRN_RT int posix_memalign(void **result, size_t alignment, size_t size) {
  size_t words = alignment / sizeof(void *);
  if (alignment % sizeof(void *) || words == 0 || (words & (words - 1)))
    return CAIRN_EINVAL;
  void *p = cairn_memalign(alignment, size);
  if (!p)
    return CAIRN_ENOMEM;
  *result = p;
  return 0;
}

CAIRN_RT void *valloc(size_t size) { return cairn_memalign(CAIRN_PAGE_SIZE, size); }

/* The size rounded up to whole pages. */
CAIRN_RT void *pvalloc(size_t size) {
  if (size > SIZE_MAX - (CAIRN_PAGE_SIZE - 1))
    return cairn_alloc_failed(CAIRN_ENOMEM);
  return cairn_memalign(CAIRN_PAGE_SIZE, (size + CAIRN_PAGE_SIZE - 1) & ~(size_t)(CAIRN_PAGE_SIZE - 1));
}
