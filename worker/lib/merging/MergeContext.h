// A merge context: a merge region (klee_open_merge) or a size-dependent loop, whose states wait
// at its end to be merged (MergeCoordinator.h), with the execution tree of their forks.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "merging/ExecutionTree.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace cairn::engine {

struct MergeContext {
  enum class Kind : uint8_t { Region, Loop };
  explicit MergeContext(ExprContext &ctx) : tree(ctx) {}

  Kind kind = Kind::Region;
  uint32_t function = 0, loop = 0; // Loop: the function and the index of its loop
  size_t frameDepth = 0;           // Loop: the stack size of the frame running the loop
  size_t prefixConstraints = 0;    // path constraints every state of the context shares
  size_t prefixDecisions = 0;
  uint64_t live = 1;               // states neither waiting at the end nor ended
  bool treeExact = true;           // false once merges inside it replaced leaves
  // The disjunctive condition folds sibling paths back into their fork's condition
  // (PathDisjunction.h): for states merged a pair at a time, in no order, as dynamic merging
  // does; merges at joins in topological order get their siblings together anyway.
  bool foldPaths = false;
  // The caller found the group compatible (incompatibility()) already: not checked again.
  bool groupCompatible = false;
  // Per frame of the states, the registers that may still be read (analysis/Liveness.h); a
  // register no frame reads again is not merged. Empty, or a null entry: every register.
  std::vector<const std::vector<bool> *> liveRegisters;
  ExecutionTree tree;
  std::vector<ExecutionState *> arrived;
  // Incremental merging (IncrementalMerging.h): each state at a fork's target, copied as it
  // stood there (a node of the tree), by id, and the ids by where they stand (function, block,
  // instruction of the top frame). A later side merges with a snapshot and the states that
  // descend from it go: the merged state stands for their paths. A snapshot goes once a path
  // under it ended or merged with one from outside (Snapshots.h).
  struct Snapshot {
    std::unique_ptr<ExecutionState> state; // its memberships' contexts left null: no cycle
    std::vector<const MergeContext *> contexts;
    uint64_t site = 0; // the fork it was taken at (Engine::currentInstr) and its side
    bool held = false;
  };
  std::unordered_map<uint32_t, Snapshot> snapshots;
  std::unordered_map<uint64_t, std::vector<uint32_t>> snapshotsAt;
  uint32_t nextSnapshot = 1;
};

} // namespace cairn::engine
