#include "executor/StopRelay.h"

#include "executor/MemoryCeiling.h"

#include "cairn/solver/Solver.h"

#include <chrono>

namespace cairn::engine {

namespace {
// How often the flag is read: well under what a user waits for after Ctrl-C, and no cost.
constexpr std::chrono::milliseconds kPoll{20};
// The heap every third poll: a query allocating a gigabyte a second passes the ceiling by a
// tenth of that at most before it is seen (the resident size costs microseconds to read).
constexpr unsigned kPollsPerMemoryCheck = 3;
} // namespace

StopRelay::StopRelay(const volatile std::sig_atomic_t *flag, MemoryCeiling *ceiling, Solver &solver)
    : flag_(flag), ceiling_(ceiling), solver_(solver), thread_([this] { watch(); }) {}

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

// Interrupts again on every poll while the reason stands: one interrupt may fall between two
// queries, where it does nothing, and the query after it would run its full time.
void StopRelay::watch() {
  std::unique_lock lock(mutex_);
  for (unsigned polls = 1; !wake_.wait_for(lock, kPoll, [&] { return done_; }); ++polls) {
    const bool stop = (flag_ && *flag_) ||
                      (ceiling_ && (polls % kPollsPerMemoryCheck ? ceiling_->reached() : ceiling_->check()));
    if (stop)
      solver_.interrupt();
  }
}

} // namespace cairn::engine
