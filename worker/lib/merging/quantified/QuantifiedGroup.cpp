#include "merging/quantified/QuantifiedGroup.h"

#include "cairn/expr/ExprUtil.h"
#include "cairn/expr/Quantified.h"
#include "merging/quantified/FormulaPattern.h"

#include <algorithm>

namespace cairn::engine::quantified {

std::optional<QuantifiedGroup> QuantifiedGroup::build(ExprContext &ctx, const PatternGroup &group,
                                                      std::span<const std::vector<ExprRef>> paths,
                                                      const ExprRef &count, const ExprRef &bound, const ExprRef &x) {
  if (group.core.empty() || paths.size() != group.leaves.size())
    return std::nullopt;
  const size_t pre = group.prefix.size(), core = group.core.size(), post = group.suffix.size();
  for (size_t j = 0; j < paths.size(); ++j)
    if (paths[j].size() != pre + group.counts[j] * core + post)
      return std::nullopt;
  const uint64_t most = *std::max_element(group.counts.begin(), group.counts.end());
  const uint64_t least = *std::min_element(group.counts.begin(), group.counts.end());
  const unsigned w = count->width();

  // φ1: the ω1 part, the same nodes on every leaf's path.
  const ExprRef phi1 = conjunction(ctx, std::span(paths[0]).subspan(0, pre));
  // φ2 from ψ_i, the i-th repetition of the core, on any leaf that has it.
  std::vector<ExprRef> cores;
  std::vector<uint64_t> corePoints;
  for (uint64_t i = 1; i <= most; ++i) {
    size_t j = 0;
    while (group.counts[j] < i)
      ++j;
    cores.push_back(conjunction(ctx, std::span(paths[j]).subspan(pre + (i - 1) * core, core)));
    corePoints.push_back(i);
  }
  // φ3 from each leaf's ω3 part at its k.
  std::vector<ExprRef> suffixes;
  for (size_t j = 0; j < paths.size(); ++j)
    suffixes.push_back(conjunction(ctx, std::span(paths[j]).subspan(pre + group.counts[j] * core, post)));

  ExprRef range;
  std::vector<uint64_t> sorted = group.counts;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  if (sorted.size() == most - least + 1) { // contiguous: lo <= k <= hi
    range = ctx.land(ctx.ule(ctx.constant(least, w), count), ctx.ule(count, ctx.constant(most, w)));
  } else {
    range = ctx.falseExpr();
    for (uint64_t k : sorted)
      range = ctx.lor(range, ctx.eq(count, ctx.constant(k, w)));
  }
  ExprRef condition = ctx.land(range, phi1);
  if (most > 0) {
    std::optional<ExprRef> phi2 = synthesize(ctx, cores, corePoints, x);
    if (!phi2)
      return std::nullopt;
    condition = ctx.land(condition, boundedForall(ctx, bound, count, substitute(ctx, *phi2, x.get(), bound)));
  }
  std::optional<ExprRef> phi3 = synthesize(ctx, suffixes, group.counts, x);
  if (!phi3)
    return std::nullopt;
  condition = ctx.land(condition, substitute(ctx, *phi3, x.get(), count));

  QuantifiedGroup out(ctx, group, count, x);
  out.condition_ = std::move(condition);
  return out;
}

std::optional<ExprRef> QuantifiedGroup::value(std::span<const ExprRef> values) const {
  std::optional<ExprRef> t = synthesize(*ctx_, values, group_->counts, x_);
  if (!t)
    return std::nullopt;
  return substitute(*ctx_, *t, x_.get(), count_);
}

} // namespace cairn::engine::quantified
