// State merging: the states a merge context forked wait at its end, and those at the same
// instruction become one state whose path condition is the disjunction of theirs and whose
// registers and memory are if-then-else values guarded by which path was taken.
//
// Two encodings (thesis chapter 5, Algorithms 4-6):
//  - per state: the guard of state i is its own path-condition suffix psi_i, the merged
//    condition their disjunction; formulas grow with (states x suffix length).
//  - execution tree: the forks inside the context form a binary tree; the merged condition and
//    values are built bottom-up from the fork conditions, linear in the tree's size, and a
//    subtree all of whose leaves merge contributes just the condition of its root.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"
#include "cairn/engine/SizeModel.h"

#include <span>
#include <string>
#include <vector>

namespace cairn::engine {

// The forks below the state that opened a merge context. Every inner node has two children
// whose conditions contradict each other; the root's condition is true. A leaf no state stands
// at (a path that ended, or the side a constraint added without forking excluded) merges as an
// infeasible path.
class ExecutionTree {
public:
  explicit ExecutionTree(ExprContext &ctx);
  // The state at `leaf` split on `cond`: the leaves of the side where it holds and of the other.
  std::pair<uint32_t, uint32_t> split(uint32_t leaf, const ExprRef &cond);
  size_t size() const { return nodes_.size(); }

private:
  friend class TreeMerge;
  struct Node {
    ExprRef cond;
    int32_t left = -1, right = -1; // -1: a leaf
  };
  ExprContext &ctx_;
  std::vector<Node> nodes_;
};

// One group of leaves of a tree, merged: Algorithm 5 (the condition) and 6 (the values).
class TreeMerge {
public:
  TreeMerge(ExprContext &ctx, const ExecutionTree &tree, std::span<const uint32_t> leaves);
  // The disjunction of the group's path conditions relative to the root.
  ExprRef condition() const;
  // The value that is `values[i]` on the path to `leaves[i]`; exact under condition() only.
  ExprRef value(std::span<const ExprRef> values) const;

private:
  std::pair<bool, ExprRef> condition(int32_t node) const;
  ExprRef value(int32_t node, std::span<const ExprRef> values) const;

  ExprContext &ctx_;
  const ExecutionTree &tree_;
  std::vector<int32_t> member_;  // per node: the index into `leaves`, or -1
  std::vector<bool> anyBelow_;   // per node: a member leaf in its subtree
};

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
  ExecutionTree tree;
  std::vector<ExecutionState *> arrived;
};

struct MergeOutcome {
  bool merged = false;
  std::string refusal; // why not, when not merged
  uint64_t constraintNodes = 0;
  uint64_t valueNodes = 0;
};

// Why `a` and `b`, waiting at the same instruction, cannot merge; empty when they can.
std::string incompatibility(const ExecutionState &a, const ExecutionState &b);

// Merges `group` (states of `context` waiting at the same instruction, each with `context` as
// its innermost membership) into group.front(). `useTree`: the execution-tree encoding (only
// when context.treeExact). On refusal no state is changed.
MergeOutcome mergeStates(ExprContext &ctx, const Program &program, const MergeContext &context,
                         std::span<ExecutionState *const> group, bool useTree);

} // namespace cairn::engine
