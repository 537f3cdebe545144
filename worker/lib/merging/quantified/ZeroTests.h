// The simplifier's forms of a comparison with 0, which a loop writes at its first iteration in
// another shape than at the others: 0 < y becomes ¬(0 = y), y <= 0 becomes 0 = y, and an
// equality of a value read from memory with 0 becomes one equality per byte, (0 = b0) ∧ (0 =
// b1) ∧ .... Path words (PathWords.cpp) hash them, and pattern synthesis (FormulaPattern.cpp)
// compares them, as the comparisons they came from.
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>

namespace cairn::engine::quantified {

// y of `0 = y` (y wider than one bit), also when written byte by byte; nothing otherwise.
std::optional<ExprRef> zeroComparand(const Expr *e);

} // namespace cairn::engine::quantified
