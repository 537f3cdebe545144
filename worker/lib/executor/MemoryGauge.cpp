#include "executor/MemoryGauge.h"

#include <cstdio>
#include <malloc.h>

namespace cairn::engine {

std::optional<uint64_t> MemoryGauge::overLimit(uint64_t limitMB) {
  // Memory in use has been written to, so it is resident (nothing here is swapped out).
  if (residentMegabytes() <= limitMB)
    return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  if (now < nextHeapCount_)
    return std::nullopt;
  nextHeapCount_ = now + std::chrono::milliseconds(500);
  const uint64_t heap = heapMegabytes();
  return heap > limitMB ? std::optional<uint64_t>(heap) : std::nullopt;
}

uint64_t MemoryGauge::residentMegabytes() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f)
    return ~uint64_t(0); // unknown: ask the allocator
  unsigned long pages = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &pages, &resident);
  std::fclose(f);
  return n == 2 ? uint64_t(resident) * 4096 / (1024 * 1024) : ~uint64_t(0);
}

// What the heap holds in use, not the resident size: memory freed by ended states stays
// resident in the allocator's arenas, and a limit on the resident size would go on ending half
// of the states at every check after the first (as KLEE measures, by the allocator's count).
uint64_t MemoryGauge::heapMegabytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  const struct mallinfo2 m = ::mallinfo2();
  return (uint64_t(m.uordblks) + uint64_t(m.hblkhd)) >> 20;
#else
  return residentMegabytes();
#endif
}

} // namespace cairn::engine
