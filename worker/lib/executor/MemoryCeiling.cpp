#include "executor/MemoryCeiling.h"

#include "cairn/solver/Solver.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace cairn::engine {

namespace {
// Often enough that a query allocating a gigabyte a second passes the ceiling by a tenth of
// that at most; the resident size costs microseconds to read.
constexpr std::chrono::milliseconds kPoll{50};
constexpr uint64_t kMinimumMarginMB = 256;
} // namespace

uint64_t MemoryCeiling::ceilingMB(uint64_t baselineMB, uint64_t limitMB) {
  return baselineMB + limitMB + std::max(limitMB / 4, kMinimumMarginMB);
}

MemoryCeiling::MemoryCeiling(uint64_t limitMB, Solver &solver)
    : solver_(solver), ceilingMB_(ceilingMB(MemoryGauge::heapMegabytes(), limitMB)), thread_([this] { watch(); }) {}

MemoryCeiling::~MemoryCeiling() {
  acknowledge();
  thread_.join();
}

void MemoryCeiling::acknowledge() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
}

// Once over, the query running is interrupted at every poll until the engine has seen it (an
// interrupt between two queries does nothing).
void MemoryCeiling::watch() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, kPoll, [&] { return done_; })) {
    if (!reached()) {
      std::optional<uint64_t> over = gauge_.overLimit(ceilingMB_);
      if (!over)
        continue;
      reachedMB_.store(*over, std::memory_order_relaxed);
      spdlog::warn("memory {} MB over the ceiling of {} MB (--max-memory and its margin): stopping the run", *over,
                   ceilingMB_);
    }
    solver_.interrupt();
  }
}

} // namespace cairn::engine
