// The disjunction of path-condition suffixes, with paths that cover both sides of a fork
// folded back into the fork's own condition: (X & c) | (X & !c) is X, X | (X & Y) is X, and
// (X & c) | (X & Y & !c) is (X & c) | (X & Y).
//
// States merged one pair at a time, as dynamic merging does, each bring a suffix; where two
// siblings meet, the fold leaves the fork's condition (often just the common prefix, `true`
// after it) instead of a disjunction the solver must take apart on every later query.
#pragma once

#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprContext.h"

#include <vector>

namespace cairn::engine {

// The disjunction of the conjunctions `paths[i]` with sibling paths folded, or null when none
// folded (the plain disjunction is then the smaller form). A literal that is itself a
// disjunction (a condition an earlier merge built, or !(a & b)) stays one literal: spread over
// its disjuncts, it folded more subtrees back to their fork but left flat disjunctions of tens
// of paths that every later merge spread and folded again and every later query took apart,
// which cost more than the folds saved (the merging benchmark's README has the numbers).
ExprRef foldedDisjunction(ExprContext &ctx, const std::vector<std::vector<ExprRef>> &paths);

} // namespace cairn::engine
