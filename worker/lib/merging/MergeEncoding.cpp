#include "merging/MergeEncoding.h"

#include "cairn/expr/ExprUtil.h"

#include <algorithm>

namespace cairn::engine {

ExprRef MergeEncoding::merge(std::span<const ExprRef> values) {
  if (std::all_of(values.begin(), values.end(), [&](const ExprRef &v) { return v == values[0]; }))
    return values[0];
  ExprRef merged = combine(values);
  if (measure_)
    valueNodes_ += dagSize(merged.get());
  return merged;
}

std::unique_ptr<MergeEncoding> createMergeEncoding(EncodingChoice choice, ExprContext &ctx, const MergeContext &context,
                                                   std::span<ExecutionState *const> group) {
  if (choice.kind == MergeEncodingKind::Quantified && choice.pattern)
    if (std::unique_ptr<MergeEncoding> q = createQuantifiedEncoding(ctx, context, group, *choice.pattern))
      return q;
  if (choice.kind != MergeEncodingKind::Disjunctive && context.treeExact)
    return createTreeEncoding(ctx, context, group);
  return createDisjunctiveEncoding(ctx, context, group);
}

} // namespace cairn::engine
