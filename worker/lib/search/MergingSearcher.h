// The searcher of the QCE merging strategies (merging/QceMerging.h), over a driving searcher:
//   SSM: the state whose position is first in topological order, so that states reach a join
//        together and merge there;
//   DSM: the paper's Algorithm 2: among the states whose position and hot values match a
//        recent block entry of another state (F), the first in topological order, so that it
//        catches up and merges; the driving searcher's choice when F is empty. F is rebuilt at
//        every pick.
#pragma once

#include "cairn/engine/Searcher.h"

#include <memory>
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
  bool empty() const override { return states_.empty(); }

private:
  std::unique_ptr<Searcher> driving_;
  QceMerging &merging_;
  bool dynamic_;
  std::vector<ExecutionState *> states_;
};

} // namespace cairn::engine
