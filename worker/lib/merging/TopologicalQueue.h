// States in the order they catch up in under merging: by topological key (QceMerging::
// topologicalKey), then by id; each state at most once, removed by name. Static merging runs
// the first; dynamic merging forwards the first of F.
#pragma once

#include "cairn/engine/ExecutionState.h"

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cairn::engine {

class TopologicalQueue {
  using Order = std::map<std::pair<std::vector<uint64_t>, uint64_t>, ExecutionState *>;

public:
  // Places `s` under `key`, unless it is in already.
  void insert(ExecutionState &s, std::vector<uint64_t> key) {
    if (!placeOf_.count(&s))
      placeOf_[&s] = order_.emplace(std::make_pair(std::move(key), s.id), &s).first;
  }
  void erase(const ExecutionState &s) {
    auto it = placeOf_.find(&s);
    if (it == placeOf_.end())
      return;
    order_.erase(it->second);
    placeOf_.erase(it);
  }
  // Whether (key, s.id) comes before every state in the queue.
  bool before(const ExecutionState &s, const std::vector<uint64_t> &key) const {
    if (order_.empty())
      return true;
    const auto &[firstKey, firstId] = order_.begin()->first;
    return key < firstKey || (key == firstKey && s.id < firstId);
  }
  // The earliest state, or nullptr.
  ExecutionState *first() const { return order_.empty() ? nullptr : order_.begin()->second; }

private:
  Order order_;
  std::unordered_map<const ExecutionState *, Order::iterator> placeOf_;
};

} // namespace cairn::engine
