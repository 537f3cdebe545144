#include "merging/ExecutionTree.h"

namespace cairn::engine {

ExecutionTree::ExecutionTree(ExprContext &ctx) : ctx_(ctx) { nodes_.push_back({ctx.trueExpr()}); }

std::pair<uint32_t, uint32_t> ExecutionTree::split(uint32_t leaf, const ExprRef &cond) {
  auto left = int32_t(nodes_.size());
  nodes_.push_back({cond, -1, -1, int32_t(leaf)});
  nodes_.push_back({ctx_.lnot(cond), -1, -1, int32_t(leaf)});
  nodes_[leaf].left = left;
  nodes_[leaf].right = left + 1;
  return {uint32_t(left), uint32_t(left + 1)};
}

ExprRef ExecutionTree::pathCondition(uint32_t from, uint32_t to, bool withFrom) const {
  std::vector<const ExprRef *> conds; // from `to` upwards
  int32_t n = int32_t(to);
  while (n >= 0 && n != int32_t(from)) {
    conds.push_back(&nodes_[size_t(n)].cond);
    n = nodes_[size_t(n)].parent;
  }
  if (n < 0)
    return ExprRef();
  ExprRef out = withFrom ? nodes_[from].cond : ctx_.trueExpr();
  for (size_t i = conds.size(); i-- > 0;)
    out = ctx_.land(out, *conds[i]);
  return out;
}

TreeMerge::TreeMerge(ExprContext &ctx, const ExecutionTree &tree, std::span<const uint32_t> leaves)
    : ctx_(ctx), tree_(tree), member_(tree.size(), -1), anyBelow_(tree.size(), false) {
  for (size_t i = 0; i < leaves.size(); ++i)
    member_[leaves[i]] = int32_t(i);
  // Children are always added after their parent: one pass from the back sees them first.
  for (size_t n = tree.size(); n-- > 0;) {
    const ExecutionTree::Node &node = tree.nodes_[n];
    anyBelow_[n] = member_[n] >= 0 ||
                   (node.left >= 0 && (anyBelow_[size_t(node.left)] || anyBelow_[size_t(node.right)]));
  }
}

ExprRef TreeMerge::condition() const { return condition(0).second; }

// Algorithm 5: (whether every leaf below is a member, the condition relative to the parent).
std::pair<bool, ExprRef> TreeMerge::condition(int32_t n) const {
  const ExecutionTree::Node &node = tree_.nodes_[size_t(n)];
  if (!anyBelow_[size_t(n)])
    return {false, ctx_.falseExpr()};
  if (node.left < 0)
    return {true, node.cond};
  auto [leftComplete, left] = condition(node.left);
  auto [rightComplete, right] = condition(node.right);
  if (leftComplete && rightComplete) // the two sides together are the whole of this node
    return {true, node.cond};
  return {false, ctx_.land(node.cond, ctx_.lor(left, right))};
}

ExprRef TreeMerge::value(std::span<const ExprRef> values) const { return value(0, values); }

// Algorithm 6: below a fork, the left side's own condition tells the two sides apart.
ExprRef TreeMerge::value(int32_t n, std::span<const ExprRef> values) const {
  const ExecutionTree::Node &node = tree_.nodes_[size_t(n)];
  if (!anyBelow_[size_t(n)])
    return ExprRef();
  if (node.left < 0)
    return values[size_t(member_[size_t(n)])];
  ExprRef left = value(node.left, values), right = value(node.right, values);
  if (!left)
    return right;
  if (!right || left == right)
    return left;
  return ctx_.ite(tree_.nodes_[size_t(node.left)].cond, left, right);
}

} // namespace cairn::engine
