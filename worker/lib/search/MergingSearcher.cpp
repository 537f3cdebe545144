#include "search/MergingSearcher.h"

#include "cairn/engine/ExecutionState.h"
#include "merging/QceMerging.h"

#include <algorithm>

namespace cairn::engine {

ExecutionState &MergingSearcher::select() {
  ExecutionState *pick = nullptr;
  for (ExecutionState *s : dynamic_ ? merging_.forwardCandidates() : states_)
    if ((!dynamic_ || merging_.matchesAnotherHistory(*s)) && (!pick || merging_.earlier(*s, *pick)))
      pick = s;
  const bool fastForward = dynamic_ && pick;
  if (!pick)
    pick = &driving_->select();
  if (dynamic_)
    merging_.picked(*pick, fastForward);
  merging_.resumed(*pick);
  return *pick;
}

void MergingSearcher::add(ExecutionState *s) {
  states_.push_back(s);
  driving_->add(s);
}

void MergingSearcher::remove(ExecutionState *s) {
  std::erase(states_, s);
  merging_.forget(*s);
  driving_->remove(s);
}

void MergingSearcher::forked(ExecutionState *parent, ExecutionState *child) {
  states_.push_back(child);
  merging_.forked(*parent, *child);
  driving_->forked(parent, child);
}

} // namespace cairn::engine
