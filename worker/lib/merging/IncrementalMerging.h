// Incremental state merging (../shared/papers/digests/quantified_state_merging.md §2.7, thesis
// §6.3): inside a merge context, a state just forked merges at once with another of the
// context that stands at the same place, waits there unrun, and holds the same values in every
// register still live and in memory: the merged state is either one with the disjunction of
// their paths after the longest prefix they share. Disjunctive code (s[i] == 'a' || s[i] == 'b'
// reaching the same count++) then keeps one state per iteration where forking would double
// them, and the context's end sees paths whose words repeat the disjunction.
//
// Of the paper's conditions: the two are merge-compatible with equal live store; neither path
// is a prefix of the other (no merge with an ancestor, which would loop); their lowest common
// ancestor is the parent of one of them (one path adds exactly one condition to the shared
// prefix); among the candidates the highest (shortest path) is taken. The context's tree stops
// matching its states (MergeContext::treeExact): the paths themselves, kept as condition lists,
// are the spliced tree. A state that ran on past its fork target is not a candidate: merging
// with it would mean discarding what it explored since.
#pragma once

#include "merging/LiveRegisters.h"

#include <memory>
#include <unordered_map>

namespace cairn::engine {

class Engine;
namespace analysis {
class SlotLiveness;
}

class IncrementalMerging {
public:
  explicit IncrementalMerging(Engine &engine);
  ~IncrementalMerging();
  // Both sides of a fork, each at its branch target (the phis of the edge done).
  void branched(ExecutionState &taken, ExecutionState &other);

private:
  // Merges `s` into a candidate of its innermost context, or records it as one.
  void arrive(ExecutionState &s);
  bool equalOnLive(const ExecutionState &a, const ExecutionState &b);
  bool absorb(ExecutionState &keep, ExecutionState &gone, size_t sharedConstraints);

  Engine &engine_;
  LiveRegisters live_;
  std::unordered_map<uint32_t, std::unique_ptr<analysis::SlotLiveness>> slots_; // per function
};

} // namespace cairn::engine
