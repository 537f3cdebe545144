// A merge context: a merge region (klee_open_merge) or a size-dependent loop, whose states wait
// at its end to be merged (MergeCoordinator.h), with the execution tree of their forks.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "merging/ExecutionTree.h"

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
  // Per frame of the states, the registers that may still be read (analysis/Liveness.h); a
  // register no frame reads again is not merged. Empty, or a null entry: every register.
  std::vector<const std::vector<bool> *> liveRegisters;
  ExecutionTree tree;
  std::vector<ExecutionState *> arrived;
  // Incremental merging: the states at a fork's target that have not run since, as (id,
  // instructions run), by where they stand (function, block, instruction of the top frame):
  // the candidates a later fork's sides merge with.
  std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>> unrun;
};

} // namespace cairn::engine
