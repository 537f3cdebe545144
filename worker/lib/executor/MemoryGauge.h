// How much memory the engine holds, for --max-memory: the heap in use as the allocator counts
// it, asked only when the resident size says it may be over the limit. glibc's mallinfo2 walks
// every free chunk of the heap, which costs milliseconds once loading a large module has
// fragmented it; reading the resident size costs microseconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace cairn::engine {

class MemoryGauge {
public:
  // The heap in use in MB when it may be over `limitMB`; nullopt when it is surely under (the
  // resident size is), or when the heap was measured less than half a second ago.
  std::optional<uint64_t> overLimit(uint64_t limitMB);
  // The heap in use in MB, measured now (milliseconds on a fragmented heap).
  static uint64_t heapMegabytes();

private:
  static uint64_t residentMegabytes();
  std::chrono::steady_clock::time_point nextHeapCount_{};
};

} // namespace cairn::engine
