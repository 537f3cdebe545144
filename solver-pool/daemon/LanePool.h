// The lanes of a solver pool replica, each on its own thread, taking tasks from one queue: a
// long query holds up one lane, not the others.
#pragma once

#include "Lane.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <atomic>
#include <thread>

namespace cairn::pool {

class LanePool {
public:
  // A task runs on a lane's thread with that lane, or with nullptr when the pool stopped before
  // it could run: either way it runs exactly once.
  using Task = std::function<void(Lane *)>;

  LanePool(size_t lanes, const LaneOptions &options);
  ~LanePool(); // stops and joins

  void submit(Task task);
  // No task starts on a lane any more: queued and later ones run with nullptr. Tasks already on
  // a lane finish.
  void stop();
  // Waits for the lanes' threads to end (after stop()).
  void join();

  size_t size() const { return lanes_.size(); }
  // The lanes' statistics, summed layer by layer.
  std::vector<SolverLayerStats> stats() const;
  uint64_t resets() const;
  size_t running() const { return running_; }
  size_t queued() const;

private:
  void run(Lane &lane);

  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<std::thread> threads_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::atomic<size_t> running_{0};
};

} // namespace cairn::pool
