#include "executor/MemoryCeiling.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace cairn::engine {

namespace {
constexpr uint64_t kMinimumMarginMB = 256;
} // namespace

uint64_t MemoryCeiling::ceilingMB(uint64_t baselineMB, uint64_t limitMB) {
  return baselineMB + limitMB + std::max(limitMB / 4, kMinimumMarginMB);
}

MemoryCeiling::MemoryCeiling(uint64_t limitMB) : ceilingMB_(ceilingMB(MemoryGauge::heapMegabytes(), limitMB)) {}

bool MemoryCeiling::check() {
  if (reached())
    return true;
  std::optional<uint64_t> over = gauge_.overLimit(ceilingMB_);
  if (!over)
    return false;
  spdlog::warn("memory {} MB over the ceiling of {} MB (--max-memory and its margin): stopping the run", *over,
               ceilingMB_);
  reached_.store(true, std::memory_order_relaxed);
  return true;
}

} // namespace cairn::engine
