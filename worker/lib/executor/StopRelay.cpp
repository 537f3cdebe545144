#include "executor/StopRelay.h"

#include "cairn/solver/Solver.h"

#include <chrono>

namespace cairn::engine {

namespace {
// How often the flag is read: well under what a user waits for after Ctrl-C, and no cost.
constexpr std::chrono::milliseconds kPoll{20};
} // namespace

StopRelay::StopRelay(const volatile std::sig_atomic_t &flag, Solver &solver)
    : flag_(flag), solver_(solver), thread_([this] { watch(); }) {}

StopRelay::~StopRelay() {
  acknowledge();
  thread_.join();
}

void StopRelay::acknowledge() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
}

// Interrupts again on every poll while the request stands: one interrupt may fall between two
// queries, where it does nothing, and the query after it would run its full time.
void StopRelay::watch() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, kPoll, [&] { return done_; }))
    if (flag_)
      solver_.interrupt();
}

} // namespace cairn::engine
