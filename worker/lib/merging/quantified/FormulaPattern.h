// Formula-pattern synthesis of state merging with quantifiers (the digest's §2.4, Theorem
// 6.2.11): given formulas (or values) ψ_1..ψ_p of the same shape that differ in constants, and
// the points d_ℓ at which they are instances, the term φ(x) with φ[d_ℓ/x] ≐ ψ_ℓ for every ℓ:
// each varying constant's position filled by a·x + b, the line through its values at the
// points (d_ℓ, γ_ℓ), checked at every point in the position's width (wrapping, as the
// bit-vectors do). The paper asks for one constant γ_ℓ per instance; a position of its own
// line each is the same theorem applied per position, and lets one iteration's conditions
// name two offsets (s[x] and s[x - 1]).
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>
#include <span>

namespace cairn::engine::quantified {

// φ(x) over the symbol expression `x`, or nothing when the ψ_ℓ differ in anything but
// constants or a position's constants lie on no line. ψ_ℓ all equal: ψ_1 itself (x does not
// occur).
std::optional<ExprRef> synthesize(ExprContext &ctx, std::span<const ExprRef> instances,
                                  std::span<const uint64_t> points, const ExprRef &x);

} // namespace cairn::engine::quantified
