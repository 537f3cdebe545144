// Formulas built from the context's execution tree (TreeMerge): linear in the tree's size.
#include "merging/MergeEncoding.h"

#include <vector>

namespace cairn::engine {

namespace {

std::vector<uint32_t> leavesOf(std::span<ExecutionState *const> group) {
  std::vector<uint32_t> leaves;
  for (const ExecutionState *s : group)
    leaves.push_back(s->merges.back().node);
  return leaves;
}

class TreeEncoding final : public MergeEncoding {
public:
  TreeEncoding(ExprContext &ctx, const MergeContext &context, std::span<ExecutionState *const> group)
      : tree_(ctx, context.tree, leavesOf(group)) {
    condition_ = tree_.condition();
  }

protected:
  ExprRef combine(std::span<const ExprRef> values) override { return tree_.value(values); }

private:
  TreeMerge tree_;
};

} // namespace

std::unique_ptr<MergeEncoding> createTreeEncoding(ExprContext &ctx, const MergeContext &context,
                                                  std::span<ExecutionState *const> group) {
  return std::make_unique<TreeEncoding>(ctx, context, group);
}

} // namespace cairn::engine
