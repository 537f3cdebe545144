// Bounded universal quantification, the one shape of quantifier state merging with quantifiers
// writes (../shared/papers/digests/quantified_state_merging.md, Def. 6.2.6):
//
//   ∀i. 1 ≤ i ≤ k → ψ(i)      (i a Bound symbol; k a term of i's width, compared unsigned)
//
// built and recognised here, and the substitution ψ[t/i] the merge and the solving procedure
// both need.
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>

namespace cairn {

struct BoundedForall {
  ExprRef bound; // i
  ExprRef count; // k
  ExprRef body;  // ψ
};

ExprRef boundedForall(ExprContext &ctx, const ExprRef &bound, const ExprRef &count, const ExprRef &body);
// The parts of `e` when it is a bounded universal as boundedForall builds it.
std::optional<BoundedForall> asBoundedForall(const Expr *e);

// `e` with the symbol expression `x` replaced by `by` (of x's width) everywhere.
ExprRef substitute(ExprContext &ctx, const ExprRef &e, const Expr *x, const ExprRef &by);
// `e` with the symbol expression `count` replaced by the constant `value`, and every bounded
// universal counted by it written out as its instances ψ[1/i] ∧ … ∧ ψ[value/i]: a merged
// condition at one leaf's k, quantifier-free where its universals all counted k.
ExprRef instantiate(ExprContext &ctx, const ExprRef &e, const Expr *count, uint64_t value);
// Whether the expression `x` occurs below (or is) `e`.
bool mentions(const Expr *e, const Expr *x);

} // namespace cairn
