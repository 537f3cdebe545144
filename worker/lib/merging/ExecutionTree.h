// The execution tree of a merge context (thesis chapter 5): the forks below the state that
// opened it, from which the execution-tree encoding builds merged formulas (TreeMerge).
#pragma once

#include "cairn/expr/Expr.h"

#include <span>
#include <utility>
#include <vector>

namespace cairn::engine {

// Every inner node has two children whose conditions contradict each other; the root's
// condition is true. A leaf no state stands at (a path that ended, or the side a constraint
// added without forking excluded) merges as an infeasible path.
class ExecutionTree {
public:
  explicit ExecutionTree(ExprContext &ctx);
  // The state at `leaf` split on `cond`: the leaves of the side where it holds and of the other.
  std::pair<uint32_t, uint32_t> split(uint32_t leaf, const ExprRef &cond);
  size_t size() const { return nodes_.size(); }
  // The paper's tpc(from, to): the conditions on the way from `from` down to `to`, `from`'s own
  // included (tpc̄: without it); null when `from` is not an ancestor of `to` (or `to` itself).
  ExprRef pathCondition(uint32_t from, uint32_t to, bool withFrom = true) const;

private:
  friend class TreeMerge;
  struct Node {
    ExprRef cond;
    int32_t left = -1, right = -1; // -1: a leaf
    int32_t parent = -1;
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
  std::vector<int32_t> member_; // per node: the index into `leaves`, or -1
  std::vector<bool> anyBelow_;  // per node: a member leaf in its subtree
};

} // namespace cairn::engine
