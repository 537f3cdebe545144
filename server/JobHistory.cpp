#include "JobHistory.h"

#include <algorithm>

namespace cairn::server {

JobHistory::JobHistory(size_t capacity, double intervalSeconds)
    : capacity_(std::max<size_t>(capacity, 4)), interval_(intervalSeconds) {}

void JobHistory::record(v1::HistorySample sample, bool force) {
  if (!samples_.empty()) {
    const v1::HistorySample &last = samples_.back();
    const double dt = sample.t_s() - last.t_s();
    if (dt < 0 || (!force && dt < interval_))
      return;
    // A rate over the time since the sample before: what the chart plots. Two samples at one
    // instant (a forced last one) keep the rate they had.
    if (dt > 0 && sample.instructions() >= last.instructions())
      sample.set_instructions_per_s(double(sample.instructions() - last.instructions()) / dt);
    else
      sample.set_instructions_per_s(last.instructions_per_s());
    if (dt == 0) {
      samples_.back() = sample; // the newer numbers at the same instant
      return;
    }
  }
  samples_.push_back(sample);
  if (samples_.size() > capacity_)
    thin();
}

// Keeps the first sample, every other one after it, and always the newest, so the chart spans
// the whole job; each kept rate is measured again over the longer span it now stands for.
void JobHistory::thin() {
  std::vector<v1::HistorySample> kept;
  kept.reserve(samples_.size() / 2 + 2);
  for (size_t i = 0; i < samples_.size(); i += 2)
    kept.push_back(samples_[i]);
  if ((samples_.size() - 1) % 2 != 0)
    kept.push_back(samples_.back());
  for (size_t i = 1; i < kept.size(); ++i) {
    const double dt = kept[i].t_s() - kept[i - 1].t_s();
    if (dt > 0 && kept[i].instructions() >= kept[i - 1].instructions())
      kept[i].set_instructions_per_s(double(kept[i].instructions() - kept[i - 1].instructions()) / dt);
  }
  samples_ = std::move(kept);
  interval_ *= 2;
}

void JobHistory::fill(v1::JobHistory &out) const {
  out.set_interval_s(interval_);
  for (const v1::HistorySample &s : samples_)
    *out.add_samples() = s;
}

} // namespace cairn::server
