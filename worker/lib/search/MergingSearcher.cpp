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
    order_.insert(*s, merging_.topologicalKey(*s));
  unplaced_.clear();
  ExecutionState *pick = order_.first();
  order_.erase(*pick);
  unplaced_.push_back(pick); // it moves while it runs
  return *pick;
}

bool MergingSearcher::pickedAgain(const ExecutionState &s, const std::vector<uint64_t> &key) const {
  return !dynamic_ && unplaced_.size() == 1 && unplaced_.front() == &s && order_.before(s, key);
}

void MergingSearcher::gather(ExecutionState &s) {
  if (!gatheredSet_.insert(&s).second)
    return;
  driving_->remove(&s);
  gathered_.push_back(&s);
  if (running_ == &s)
    running_ = nullptr;
}

bool MergingSearcher::ungather(ExecutionState *s) {
  if (!gatheredSet_.erase(s))
    return false;
  gathered_.erase(std::find(gathered_.begin(), gathered_.end(), s));
  return true;
}

void MergingSearcher::release(ExecutionState &s) {
  if (ungather(&s))
    driving_->add(&s);
}

ExecutionState &MergingSearcher::selectDynamic() {
  merging_.releaseHeld();
  ExecutionState *pick = merging_.firstToForward();
  const bool fastForward = pick != nullptr;
  if (fastForward) {
    release(*pick);
  } else {
    if (driving_->empty()) { // every state left is at the end: they go on, in the order they came
      for (ExecutionState *s : gathered_)
        driving_->add(s);
      gathered_.clear();
      gatheredSet_.clear();
    }
    if (!running_ || merging_.picksAnewAfter(*running_))
      driving_->pickAnew();
    pick = &driving_->select();
  }
  running_ = pick;
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
  if (running_ == s)
    running_ = nullptr;
  merging_.forget(*s);
  if (dynamic_) {
    if (!ungather(s))
      driving_->remove(s);
  } else {
    std::erase(unplaced_, s);
    order_.erase(*s);
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
