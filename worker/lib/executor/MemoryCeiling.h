// The hard side of --max-memory. The soft side ends states: half of them when the heap is over
// the limit (Engine::checkMemory), a path whose own objects outgrow it (SizePolicy). Memory no
// state's objects hold grows past both unchecked: a solver query's, the terms one path builds,
// the caches. On a worker that runs out, the kernel ends the process and every item it held,
// and the coordinator hands the item to the next worker, which runs out the same way. The
// ceiling is measured from the StopRelay's thread while the run runs, so a query that
// allocates is seen too; past it the run stops as a stop request would (the remaining states
// end as partial paths, each with its test) and the query in flight is interrupted.
#pragma once

#include "executor/MemoryGauge.h"

#include <atomic>
#include <cstdint>

namespace cairn::engine {

class MemoryCeiling {
public:
  // The heap the run may reach: what it held when the run began (the loaded program, the
  // solver's context, a worker's cached programs), the limit, and a margin over the limit for
  // the soft side to act in first: a quarter of the limit, at least 256 MB.
  static uint64_t ceilingMB(uint64_t baselineMB, uint64_t limitMB);

  // Measures the heap now, for the baseline.
  explicit MemoryCeiling(uint64_t limitMB);

  uint64_t ceilingMB() const { return ceilingMB_; }
  // Measures the heap (from one thread only); true once it has been past the ceiling.
  bool check();
  // Whether some check found the heap past the ceiling (from any thread).
  bool reached() const { return reached_.load(std::memory_order_relaxed); }

private:
  uint64_t ceilingMB_ = 0;
  MemoryGauge gauge_; // the checking thread's own
  std::atomic<bool> reached_{false};
};

} // namespace cairn::engine
