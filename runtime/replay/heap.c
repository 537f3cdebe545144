/* Heap blocks of no bytes. Under analysis malloc(0) and calloc with a zero size make an object
 * of no bytes, so that any access to it is out of bounds; AddressSanitizer hands out one
 * addressable byte instead. realloc(p, 0) frees p and returns NULL, as glibc's does. `cairn
 * replay` links the program with --wrap=malloc,--wrap=calloc,--wrap=realloc, so the program's
 * calls come here first; a block of no bytes is one byte poisoned by hand, which
 * AddressSanitizer reports as a use-after-poison when touched. (Aligned blocks: aligned-heap.c.) */
#include <stddef.h>
#include <stdlib.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

extern void __asan_poison_memory_region(void const volatile *begin, size_t size)
    __attribute__((weak));

static void *empty_block(void) {
  void *p = __real_malloc(1);
  if (p && __asan_poison_memory_region)
    __asan_poison_memory_region(p, 1);
  return p;
}

void *__wrap_malloc(size_t size) { return size ? __real_malloc(size) : empty_block(); }

void *__wrap_calloc(size_t count, size_t size) {
  return count && size ? __real_calloc(count, size) : empty_block();
}

/* As the engine and glibc: the old block freed, and no new one. */
void *__wrap_realloc(void *p, size_t size) {
  if (size)
    return __real_realloc(p, size);
  free(p);
  return NULL;
}
