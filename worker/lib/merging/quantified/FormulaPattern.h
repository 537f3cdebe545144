// Formula-pattern synthesis of state merging with quantifiers (the digest's §2.4, Theorem
// 6.2.11): given formulas (or values) ψ_1..ψ_p that are the same up to one constant, γ_ℓ in
// ψ_ℓ (at one position or several, always the same value within one ψ_ℓ), and the points d_ℓ
// at which they are instances, the term φ(x) with φ[d_ℓ/x] ≐ ψ_ℓ for every ℓ: the constant's
// places filled by a·x + b, with a and b the line through the points (d_ℓ, γ_ℓ), checked at
// every point in the places' width (wrapping, as the bit-vectors do).
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>
#include <span>

namespace cairn::engine::quantified {

// φ(x) over the symbol expression `x`, or nothing when the ψ_ℓ differ in more than one
// constant, in anything but constants, or their constants lie on no line. ψ_ℓ all equal: ψ_1
// itself (x does not occur).
std::optional<ExprRef> synthesize(ExprContext &ctx, std::span<const ExprRef> instances,
                                  std::span<const uint64_t> points, const ExprRef &x);

} // namespace cairn::engine::quantified
