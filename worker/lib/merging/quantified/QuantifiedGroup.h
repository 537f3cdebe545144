// One regular partition of a merge context's leaves merged with a quantifier (the digest's
// Def. 6.2.6 and Theorem 6.2.11): the leaves' path conditions after the context's root, split
// by the pattern ω1 ω2^k ω3 into φ1 (the ω1 part, common), the core's instances ψ_i (i = 1..max
// k_j) and each leaf's ω3 part; the patterns φ2(x) and φ3(x) synthesized; the merged condition
//
//   (k_lo ≤ k ≤ k_hi, or ⋁ k = k_j) ∧ φ1 ∧ ∀i. 1 ≤ i ≤ k → φ2[i/x] ∧ φ3[k/x]
//
// with a fresh k. Values whose per-leaf instances fit a term t(x) are t[k/x].
#pragma once

#include "merging/quantified/PathWords.h"

#include <optional>
#include <span>

namespace cairn::engine::quantified {

class QuantifiedGroup {
public:
  // `paths[leaf]`: the conditions along the path of each leaf of the partition (one per letter
  // of its word, the root's `true` first), indexed as the partition's leaves are; `count` is k,
  // `bound` i (a Bound symbol), `x` the synthesis variable, all of one width. Nothing when a
  // pattern cannot be synthesized: the group is merged the standard way.
  static std::optional<QuantifiedGroup> build(ExprContext &ctx, const PatternGroup &group,
                                              std::span<const std::vector<ExprRef>> paths, const ExprRef &count,
                                              const ExprRef &bound, const ExprRef &x);

  const ExprRef &condition() const { return condition_; }
  // The value that is values[j] at the group's j-th leaf, as t[k/x]; nothing where no t fits.
  std::optional<ExprRef> value(std::span<const ExprRef> values) const;

private:
  QuantifiedGroup(ExprContext &ctx, const PatternGroup &group, ExprRef count, ExprRef x)
      : ctx_(&ctx), group_(&group), count_(std::move(count)), x_(std::move(x)) {}

  ExprContext *ctx_;
  const PatternGroup *group_;
  ExprRef count_, x_, condition_;
};

} // namespace cairn::engine::quantified
