// Carries a stop request (Ctrl-C, SIGTERM, a work item cancelled by the coordinator) to the
// solver query running when it comes. The engine sees the request between slices, but a query
// can hold it for its whole time limit first: a float query or a --libc full input query had
// kept a stopped run going for 30 s. A thread of its own watches the flag and interrupts the
// solver (Solver::interrupt) until the engine has seen the request; from then on the queries
// for the remaining paths' tests run under the wind-down's budget.
#pragma once

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

namespace cairn {
class Solver;
}

namespace cairn::engine {

class StopRelay {
public:
  StopRelay(const volatile std::sig_atomic_t &flag, Solver &solver);
  ~StopRelay();
  StopRelay(const StopRelay &) = delete;
  StopRelay &operator=(const StopRelay &) = delete;

  // The engine has seen the request: the queries from now on are the wind-down's own.
  void acknowledge();

private:
  void watch();

  const volatile std::sig_atomic_t &flag_;
  Solver &solver_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_; // last: starts once the members it reads exist
};

} // namespace cairn::engine
