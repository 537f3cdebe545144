// Incremental state merging (../shared/papers/digests/quantified_state_merging.md §2.7, thesis
// §6.3): inside a merge context, a state just forked merges at once with an earlier state of
// the context as it stood at the same place (a snapshot) with the same values in every
// register still live and in memory: the merged state is either one with the disjunction of
// their paths after the longest prefix they share. Disjunctive code (s[i] == 'a' || s[i] == 'b'
// reaching the same count++) then keeps one state per iteration where forking would double
// them, and the context's end sees paths whose words repeat the disjunction.
//
// Of the paper's conditions: the two are merge-compatible with equal live store; the new side
// does not descend from the other (no merge with an ancestor, which would loop); their lowest
// common ancestor is the parent of one of them (one path adds exactly one condition to the
// shared prefix); among the candidates the highest (shortest path) is taken. The candidates are
// snapshots (MergeContext::snapshots), each state as it stood at its fork's target: one that
// ran on since is merged as it stood there and the states it became are discarded (the merged
// state explores their paths again), unless one of them ended or merged with a state from
// outside (Snapshots.h). Where that discarded work, the fork whose side ran on has its other
// side run first from then on (Searcher::pickBefore): in disjunctive code the side that stands
// at the join then waits there unrun, and merging with it discards nothing. The context's tree stops matching its states (MergeContext::treeExact): the
// paths themselves, kept as condition lists, are the spliced tree.
#pragma once

#include "merging/LiveRegisters.h"

#include <memory>
#include <unordered_map>

namespace cairn::engine {

class Engine;
struct MergeContext;
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
  // Merges `s`, the side of the fork at `site` where its condition `held` or not, with a
  // snapshot of its innermost context; then (merged or not) takes its own.
  void arrive(ExecutionState &s, uint64_t site, bool held);
  bool equalOnLive(const ExecutionState &a, const ExecutionState &b);
  // Merges the snapshot `id` of `c` into `keep`, discarding the states that descend from it.
  void absorb(ExecutionState &keep, MergeContext &c, uint32_t id, size_t sharedConstraints);
  // The states and snapshots of `c` that descend from its snapshot `id` (`snapshot`) go; how
  // many states; `ranOn`: how many of them are not the snapshot's own state unrun.
  size_t discardSubtree(MergeContext &c, uint32_t id, const ExecutionState &snapshot, uint64_t &ranOn);
  void takeSnapshot(MergeContext &c, ExecutionState &s, uint64_t position, uint64_t site, bool held);

  Engine &engine_;
  LiveRegisters live_;
  std::unordered_map<uint32_t, std::unique_ptr<analysis::SlotLiveness>> slots_; // per function
  // Per fork site where merging with a snapshot discarded work: whether the side where the
  // condition held runs first.
  std::unordered_map<uint64_t, bool> firstSide_;
};

} // namespace cairn::engine
