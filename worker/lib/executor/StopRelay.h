// Carries a reason to stop to the solver query running when it comes: a stop request (Ctrl-C,
// SIGTERM, a work item cancelled by the coordinator) or the heap past --max-memory's ceiling
// (MemoryCeiling). The engine sees either between slices, but a query can hold it for its
// whole time limit first: a float query or a --libc full input query had kept a stopped run
// going for 30 s, and a query that allocates is what a memory ceiling is for. A thread of its
// own watches the flag and the heap and interrupts the solver (Solver::interrupt) until the
// engine has seen the reason; from then on the queries for the remaining paths' tests run
// under the wind-down's budget.
#pragma once

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

namespace cairn {
class Solver;
}

namespace cairn::engine {

class MemoryCeiling;

class StopRelay {
public:
  // Either of `flag` and `ceiling` may be null; each must outlive the relay.
  StopRelay(const volatile std::sig_atomic_t *flag, MemoryCeiling *ceiling, Solver &solver);
  ~StopRelay();
  StopRelay(const StopRelay &) = delete;
  StopRelay &operator=(const StopRelay &) = delete;

  // The engine has seen the reason: the queries from now on are the wind-down's own.
  void acknowledge();

private:
  void watch();

  const volatile std::sig_atomic_t *flag_;
  MemoryCeiling *ceiling_;
  Solver &solver_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_; // last: starts once the members it reads exist
};

} // namespace cairn::engine
