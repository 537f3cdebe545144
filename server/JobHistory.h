// A job's progress over time for the dashboard's chart: one sample per interval while the job
// runs, in bounded memory. When the history is full, every other sample is dropped and the
// interval doubles, so a long job keeps its whole span at a coarser grain (the first and the
// latest samples always stay). Not thread-safe: the Scheduler holds it under its lock.
#pragma once

#include "cairn/v1/dashboard.pb.h"

#include <cstddef>
#include <vector>

namespace cairn::server {

class JobHistory {
public:
  explicit JobHistory(size_t capacity = 600, double intervalSeconds = 1.0);

  // Adds `sample` (its t_s, paths, tests, coverage and instructions; the rate is computed
  // here) when at least the interval passed since the last one, or always with `force` (the
  // job's first and last samples). A sample earlier than the last one is ignored.
  void record(v1::HistorySample sample, bool force = false);

  double intervalSeconds() const { return interval_; }
  size_t size() const { return samples_.size(); }
  void fill(v1::JobHistory &out) const;

private:
  void thin();
  size_t capacity_;
  double interval_;
  std::vector<v1::HistorySample> samples_;
};

} // namespace cairn::server
