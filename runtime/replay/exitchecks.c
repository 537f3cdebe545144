/* What the program leaves on the heap when it ends, for a replay of an analysis that ran with
 * --check-leaks or --check-memcleanup (`cairn replay` then sets CAIRN_REPLAY_CHECK_LEAKS=1 or
 * CAIRN_REPLAY_CHECK_MEMCLEANUP=1). When the program returns from main or calls exit() (or
 * _exit(), through heap.c's wrapper), as the engine checks at those ends:
 *   - leaks: LeakSanitizer looks for heap blocks nothing reachable points to (it scans the
 *     globals and the stack that is still live, as the engine does), reported as
 *     "cairn-replay: error leak unreachable-memory";
 *   - memcleanup: any block of the program's still allocated ("leak unfreed-memory"). The
 *     program's blocks are those heap.c's wrappers hand out, kept here in a set; the library's
 *     own and those the C library allocates inside are none of them.
 * A run that the library ends itself (a bad test, a divergence, klee_silent_exit) is not checked:
 * the engine ends those paths without checking either. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "replay.h"

/* LeakSanitizer's, when AddressSanitizer runs with detect_leaks=1. */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* The program's live blocks: an open-addressing set of addresses in memory of its own (malloc
 * would come back here). */
#define EMPTY ((uintptr_t)0)
#define REMOVED ((uintptr_t)1)
static uintptr_t *slots;
static size_t capacity, occupied, live;
static int check_leaks, check_memcleanup, checked;

static size_t slot_of(uintptr_t p) {
  uint64_t h = (uint64_t)(p >> 4) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 29)) & (capacity - 1);
}

static void insert(uintptr_t p) {
  size_t i = slot_of(p);
  while (slots[i] > REMOVED)
    i = (i + 1) & (capacity - 1);
  if (slots[i] == EMPTY)
    ++occupied;
  slots[i] = p;
  ++live;
}

/* Rebuilt at twice the size while half of it holds live blocks, else at the same size without
 * the removed ones. */
static void rebuild(void) {
  uintptr_t *old = slots;
  size_t old_capacity = capacity;
  capacity = !capacity ? 1024 : live * 2 >= capacity / 2 ? capacity * 2 : capacity;
  void *fresh = mmap(NULL, capacity * sizeof *slots, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (fresh == MAP_FAILED)
    cairn_replay_error("exec", "out-of-memory", "no memory to keep the program's heap blocks in");
  slots = fresh;
  occupied = live = 0;
  for (size_t i = 0; i < old_capacity; ++i)
    if (old[i] > REMOVED)
      insert(old[i]);
  if (old)
    munmap(old, old_capacity * sizeof *slots);
}

void cairn_replay_heap_track(void *block) {
  if (!block || !check_memcleanup)
    return;
  if ((occupied + 1) * 4 > capacity * 3)
    rebuild();
  insert((uintptr_t)block);
}

void cairn_replay_heap_forget(void *block) {
  if (!block || !capacity)
    return;
  for (size_t i = slot_of((uintptr_t)block); slots[i] != EMPTY; i = (i + 1) & (capacity - 1))
    if (slots[i] == (uintptr_t)block) {
      slots[i] = REMOVED;
      --live;
      return;
    }
}

void cairn_replay_skip_exit_checks(void) { checked = 1; }

void cairn_replay_check_exit(void) {
  if (checked)
    return;
  checked = 1;
  if (check_leaks && __lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check())
    cairn_replay_error("leak", "unreachable-memory",
                       "LeakSanitizer found heap memory unreachable at the program's end");
  if (check_memcleanup && live)
    cairn_replay_error("leak", "unfreed-memory", "%zu heap block%s still allocated at the program's end",
                       live, live == 1 ? "" : "s");
}

static int enabled(const char *name) {
  const char *v = getenv(name);
  return v && v[0] == '1';
}

void cairn_replay_watch_exit(void) {
  check_leaks = enabled("CAIRN_REPLAY_CHECK_LEAKS");
  check_memcleanup = enabled("CAIRN_REPLAY_CHECK_MEMCLEANUP");
  if (check_leaks || check_memcleanup)
    atexit(cairn_replay_check_exit);
}
