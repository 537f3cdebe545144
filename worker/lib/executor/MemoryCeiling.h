// The hard side of --max-memory. The soft side ends states: half of them when the heap is over
// the limit (Engine::checkMemory), a path whose own objects outgrow it (SizePolicy). Memory no
// state's objects hold grows past both unchecked: a solver query's, the terms one path builds,
// the caches. On a worker that runs out, the kernel ends the process and every item it held,
// and the coordinator hands the item to the next worker, which runs out the same way. A thread
// of its own measures the heap while the run runs; past the ceiling the run stops as a stop
// request would (the remaining states end as partial paths, each with its test) and the query
// in flight is interrupted.
#pragma once

#include "executor/MemoryGauge.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace cairn {
class Solver;
}

namespace cairn::engine {

class MemoryCeiling {
public:
  // The heap the run may reach: what it held when the run began (the loaded program, the
  // solver's context, a worker's cached programs), the limit, and a margin over the limit for
  // the soft side to act in first: a quarter of the limit, at least 256 MB.
  static uint64_t ceilingMB(uint64_t baselineMB, uint64_t limitMB);

  MemoryCeiling(uint64_t limitMB, Solver &solver);
  ~MemoryCeiling();
  MemoryCeiling(const MemoryCeiling &) = delete;
  MemoryCeiling &operator=(const MemoryCeiling &) = delete;

  uint64_t ceilingMB() const { return ceilingMB_; }
  // The heap passed the ceiling at some measurement; its size then.
  bool reached() const { return reachedMB_.load(std::memory_order_relaxed) != 0; }
  uint64_t reachedMB() const { return reachedMB_.load(std::memory_order_relaxed); }
  // The engine has seen it: the wind-down's queries are not interrupted.
  void acknowledge();

private:
  void watch();

  Solver &solver_;
  uint64_t ceilingMB_ = 0;
  MemoryGauge gauge_; // the watching thread's own
  std::atomic<uint64_t> reachedMB_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_; // last: starts once the members it reads exist
};

} // namespace cairn::engine
