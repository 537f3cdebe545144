// Where states merge: merge contexts are opened by klee_open_merge (regions) and by forks on a
// symbolic size inside a loop (size-dependent loops, in the merge size modes); the states a
// context forked wait at its end, out of the searcher, until all of them got there or ended,
// and those at the same instruction become one state (StateMerging.h has the encodings).
#pragma once

#include "merging/IncrementalMerging.h"
#include "merging/StateMerging.h"

#include <memory>
#include <vector>

namespace cairn::engine {

class Engine;

class MergeCoordinator {
public:
  explicit MergeCoordinator(Engine &engine) : engine_(engine), incremental_(engine) {}

  void openRegion(ExecutionState &s) { open(s, MergeContext::Kind::Region); }
  void closeRegion(ExecutionState &s);
  // Before `s` forks on `cond`: opens a loop context when the fork makes its loop size-dependent.
  void beforeFork(ExecutionState &s, const ExprRef &cond);
  // Both sides of a fork stay in every context the state is in; each tree records the split.
  void forked(ExecutionState &s, ExecutionState &other, const ExprRef &cond);
  // Both sides of a conditional branch that forked, each at its target.
  void branched(ExecutionState &taken, ExecutionState &other) { incremental_.branched(taken, other); }
  // A constraint added without a fork.
  void constrained(ExecutionState &s, const ExprRef &c);
  // A symbolic branch only one side of which is feasible (`taken` holds on the path).
  void decided(ExecutionState &s, const ExprRef &taken);
  // Before each instruction: true when the state stopped to wait at its loop context's end.
  bool waitsAtLoopExit(ExecutionState &s) {
    if (s.merges.empty() || !leftLoop(s))
      return false;
    arrive(s);
    return true;
  }
  // An ending state leaves its contexts: no longer awaited, or no longer waiting.
  void leave(ExecutionState &s);
  // A state discarded without ending (a merged state stands for its paths) leaves the run.
  void withdraw(ExecutionState &s);
  // The state is about to run the first instruction after the loop of its innermost context.
  bool leftLoop(const ExecutionState &s) const;
  // Merges the contexts whose states all arrived or ended.
  void completePending();

private:
  MergeContext &open(ExecutionState &s, MergeContext::Kind kind);
  void release(ExecutionState &s);
  void arrive(ExecutionState &s);
  void complete(MergeContext &c);
  MergeEncodingKind encodingOf(const MergeContext &c) const;
  void validate(const MergeOutcome &o);
  void discardMerged(ExecutionState &s);

  Engine &engine_;
  IncrementalMerging incremental_;
  std::vector<std::shared_ptr<MergeContext>> pending_; // every state arrived or ended
  bool warnedUnmatchedClose_ = false;
};

} // namespace cairn::engine
