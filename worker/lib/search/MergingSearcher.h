// The searcher of the QCE merging strategies (merging/QceMerging.h), over a driving searcher:
//   SSM: the state whose position is first in topological order, so that states reach a join
//        together and merge there;
//   DSM: the paper's Algorithm 2: among the states whose position and hot values match a
//        recent block entry of another state (F), the first in topological order, so that it
//        catches up and merges; the driving searcher's choice when F is empty, made anew at
//        every block entry near a fork (QceMerging::picksAnewAfter). F is kept up to date as
//        states move (QceMerging::firstToForward). States that reached the program's end
//        wait there out of the driving searcher's reach while it has other states, and so do
//        states at a loop's exit while states are still inside the loop (for a bounded number
//        of picks, QceMerging::releaseHeld).
#pragma once

#include "cairn/engine/Searcher.h"
#include "merging/TopologicalQueue.h"

#include <memory>
#include <unordered_set>
#include <vector>

namespace cairn::engine {

class QceMerging;

class MergingSearcher final : public Searcher {
public:
  MergingSearcher(std::unique_ptr<Searcher> driving, QceMerging &merging, bool dynamic)
      : driving_(std::move(driving)), merging_(merging), dynamic_(dynamic) {}

  ExecutionState &select() override;
  void add(ExecutionState *s) override;
  void remove(ExecutionState *s) override;
  void forked(ExecutionState *parent, ExecutionState *child) override;
  bool empty() const override { return members_.empty(); }
  void pickBefore(ExecutionState *first, ExecutionState *then) override { driving_->pickBefore(first, then); }
  // SSM: `s`, running with no state added since it was picked, stands before every other
  // state in topological order, so that it would be picked again were it to stop.
  bool pickedAgain(const ExecutionState &s, const std::vector<uint64_t> &key) const;
  // DSM: `s` (not running) leaves the driving searcher until no other state is left to it,
  // until it is picked to catch up (QceMerging::gathers), or until it is released.
  void gather(ExecutionState &s);
  // DSM: a gathered state goes back to the driving searcher (a no-op for one that is not).
  void release(ExecutionState &s);

private:
  ExecutionState &selectStatic();
  ExecutionState &selectDynamic();

  std::unique_ptr<Searcher> driving_;
  QceMerging &merging_;
  bool dynamic_;
  // The states in the searcher: one waiting out of it (a region merge) may be removed twice.
  std::unordered_set<const ExecutionState *> members_;
  // SSM: the states not running, by topological key then id (a state's position changes only
  // while it runs, so the keys stay true). The running one and those added since the last
  // pick (a child is placed after its fork is announced) go in at the next pick.
  TopologicalQueue order_;
  std::vector<ExecutionState *> unplaced_;
  // DSM: the state picked last, which stopped at a block entry when the next pick is made.
  ExecutionState *running_ = nullptr;
  // DSM: the states gathered at the program's end, out of the driving searcher, in the order
  // they came (the order they go back in: a run is the same run each time).
  std::vector<ExecutionState *> gathered_;
  std::unordered_set<const ExecutionState *> gatheredSet_;
  bool ungather(ExecutionState *s); // false: `s` was not gathered
};

} // namespace cairn::engine
