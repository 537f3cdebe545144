// Each state guarded by its own path-condition suffix.
#include "merging/MergeEncoding.h"

#include <vector>

namespace cairn::engine {

namespace {

class DisjunctiveEncoding final : public MergeEncoding {
public:
  DisjunctiveEncoding(ExprContext &ctx, const MergeContext &context, std::span<ExecutionState *const> group)
      : ctx_(ctx) {
    condition_ = ctx.falseExpr();
    for (const ExecutionState *s : group) {
      ExprRef suffix = ctx.trueExpr();
      for (size_t i = context.prefixConstraints; i < s->constraints.size(); ++i)
        suffix = ctx.land(suffix, s->constraints[i]);
      guards_.push_back(suffix);
      condition_ = ctx.lor(condition_, suffix);
    }
  }

protected:
  // The last state's value needs no guard: the merged condition implies one holds.
  ExprRef combine(std::span<const ExprRef> values) override {
    ExprRef merged = values.back();
    for (size_t i = values.size() - 1; i-- > 0;)
      merged = ctx_.ite(guards_[i], values[i], merged);
    return merged;
  }

private:
  ExprContext &ctx_;
  std::vector<ExprRef> guards_;
};

} // namespace

std::unique_ptr<MergeEncoding> createDisjunctiveEncoding(ExprContext &ctx, const MergeContext &context,
                                                         std::span<ExecutionState *const> group) {
  return std::make_unique<DisjunctiveEncoding>(ctx, context, group);
}

} // namespace cairn::engine
