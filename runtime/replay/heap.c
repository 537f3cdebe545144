/* The program's heap as the engine has it. `cairn replay` links the program with
 * --wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup,--wrap=strndup,--wrap=_exit,
 * so the program's calls come here first:
 *  - blocks of no bytes: under analysis malloc(0) and calloc with a zero size make an object of
 *    no bytes, so that any access to it is out of bounds; AddressSanitizer hands out one
 *    addressable byte instead. A block of no bytes is one byte poisoned by hand, which
 *    AddressSanitizer reports as a use-after-poison when touched. realloc(p, 0) frees p and
 *    returns NULL, as glibc's does.
 *  - the program's blocks, for the checks at its end (exitchecks.c): every block handed out here
 *    is tracked until freed. strdup and strndup are the engine's runtime's, on malloc, so their
 *    blocks are the program's too (glibc's would allocate where no wrapper sees it).
 *  - _exit ends the program like exit for those checks, as it does under analysis.
 * (Aligned blocks: aligned-heap.c, tracked here too.) */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
__attribute__((noreturn)) void __real__exit(int status);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
__attribute__((noreturn)) void __wrap__exit(int status);

extern void __asan_poison_memory_region(void const volatile *begin, size_t size)
    __attribute__((weak));

static void *tracked(void *p) {
  cairn_replay_heap_track(p);
  return p;
}

static void *empty_block(void) {
  void *p = __real_malloc(1);
  if (p && __asan_poison_memory_region)
    __asan_poison_memory_region(p, 1);
  return tracked(p);
}

void *__wrap_malloc(size_t size) { return size ? tracked(__real_malloc(size)) : empty_block(); }

void *__wrap_calloc(size_t count, size_t size) {
  return count && size ? tracked(__real_calloc(count, size)) : empty_block();
}

void __wrap_free(void *p) {
  cairn_replay_heap_forget(p);
  __real_free(p);
}

/* As the engine and glibc: the old block freed, and no new one. A block that moves is the
 * program's anew; one that cannot grow stays where it was, still the program's. */
void *__wrap_realloc(void *p, size_t size) {
  if (!size) {
    __wrap_free(p);
    return NULL;
  }
  void *moved = __real_realloc(p, size);
  if (moved) {
    cairn_replay_heap_forget(p);
    cairn_replay_heap_track(moved);
  }
  return moved;
}

char *__wrap_strdup(const char *s) {
  size_t n = strlen(s);
  char *d = __wrap_malloc(n + 1);
  if (d)
    memcpy(d, s, n + 1);
  return d;
}

char *__wrap_strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *d = __wrap_malloc(len + 1);
  if (d) {
    memcpy(d, s, len);
    d[len] = 0;
  }
  return d;
}

void __wrap__exit(int status) {
  cairn_replay_check_exit();
  __real__exit(status);
}
