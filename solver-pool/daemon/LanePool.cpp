#include "LanePool.h"

namespace cairn::pool {

LanePool::LanePool(size_t lanes, const LaneOptions &options) {
  for (size_t i = 0; i < lanes; ++i)
    lanes_.push_back(std::make_unique<Lane>(options));
  for (auto &lane : lanes_)
    threads_.emplace_back([this, l = lane.get()] { run(*l); });
}

LanePool::~LanePool() {
  stop();
  join();
}

void LanePool::submit(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back(std::move(task));
      wake_.notify_one();
      return;
    }
  }
  task(nullptr);
}

void LanePool::stop() {
  std::deque<Task> abandoned;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    abandoned.swap(queue_);
    wake_.notify_all();
  }
  for (Task &t : abandoned)
    t(nullptr);
}

void LanePool::join() {
  for (std::thread &t : threads_)
    if (t.joinable())
      t.join();
}

void LanePool::run(Lane &lane) {
  while (true) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_)
        return;
      task = std::move(queue_.front());
      queue_.pop_front();
      ++running_; // under the lock: a task is always queued or running for stats()
    }
    task(&lane);
    --running_;
  }
}

std::vector<SolverLayerStats> LanePool::stats() const {
  std::vector<SolverLayerStats> sum;
  for (const auto &lane : lanes_)
    addLayerStats(sum, lane->stats());
  return sum;
}

size_t LanePool::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

uint64_t LanePool::resets() const {
  uint64_t n = 0;
  for (const auto &lane : lanes_)
    n += lane->resets();
  return n;
}

} // namespace cairn::pool
