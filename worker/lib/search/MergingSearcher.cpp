#include "search/MergingSearcher.h"

#include "cairn/engine/ExecutionState.h"
#include "merging/QceMerging.h"

#include <algorithm>

namespace cairn::engine {

ExecutionState &MergingSearcher::select() {
  ExecutionState &pick = dynamic_ ? selectDynamic() : selectStatic();
  merging_.resumed(pick);
  return pick;
}

ExecutionState &MergingSearcher::selectStatic() {
  for (ExecutionState *s : unplaced_)
    placeOf_[s] = order_.emplace(std::make_pair(merging_.topologicalKey(*s), s->id), s).first;
  unplaced_.clear();
  auto first = order_.begin();
  ExecutionState *pick = first->second;
  placeOf_.erase(pick);
  order_.erase(first);
  unplaced_.push_back(pick); // it moves while it runs
  return *pick;
}

ExecutionState &MergingSearcher::selectDynamic() {
  ExecutionState *pick = merging_.firstToForward();
  const bool fastForward = pick != nullptr;
  if (!fastForward) {
    driving_->pickAnew();
    pick = &driving_->select();
  }
  merging_.picked(*pick, fastForward);
  return *pick;
}

void MergingSearcher::add(ExecutionState *s) {
  members_.insert(s);
  if (dynamic_)
    driving_->add(s);
  else
    unplaced_.push_back(s);
}

void MergingSearcher::remove(ExecutionState *s) {
  if (!members_.erase(s))
    return;
  merging_.forget(*s);
  if (dynamic_) {
    driving_->remove(s);
  } else if (auto u = std::find(unplaced_.begin(), unplaced_.end(), s); u != unplaced_.end()) {
    unplaced_.erase(u);
  } else if (auto it = placeOf_.find(s); it != placeOf_.end()) {
    order_.erase(it->second);
    placeOf_.erase(it);
  }
}

void MergingSearcher::forked(ExecutionState *parent, ExecutionState *child) {
  members_.insert(child);
  merging_.forked(*parent, *child);
  if (dynamic_)
    driving_->forked(parent, child);
  else
    unplaced_.push_back(child);
}

} // namespace cairn::engine
