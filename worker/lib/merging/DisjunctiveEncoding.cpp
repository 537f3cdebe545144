// Each state guarded by its own path-condition suffix.
#include "merging/MergeEncoding.h"
#include "merging/PathDisjunction.h"

#include <vector>

namespace cairn::engine {

namespace {

class DisjunctiveEncoding final : public MergeEncoding {
public:
  DisjunctiveEncoding(ExprContext &ctx, const MergeContext &context, std::span<ExecutionState *const> group)
      : ctx_(ctx) {
    std::vector<std::vector<ExprRef>> suffixes;
    for (const ExecutionState *s : group) {
      ExprRef guard = ctx.trueExpr();
      for (size_t i = context.prefixConstraints; i < s->constraints.size(); ++i)
        guard = ctx.land(guard, s->constraints[i]);
      guards_.push_back(guard);
      if (context.foldPaths)
        suffixes.emplace_back(s->constraints.exprs().begin() + context.prefixConstraints, s->constraints.exprs().end());
    }
    if (context.foldPaths)
      condition_ = foldedDisjunction(ctx, suffixes);
    if (!condition_) {
      condition_ = ctx.falseExpr();
      for (const ExprRef &g : guards_)
        condition_ = ctx.lor(condition_, g);
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
