// Bounds of an integer program's objectives over its linear relaxation, by GLPK's exact simplex
// (glp_exact: rational arithmetic): --array-bounds glpk, measured against Z3's optimiser.
//
// GLPK takes its numbers as doubles. The relaxation stays sound where they are not exact:
// variable bounds and constraint constants are rounded outwards (the relaxation only grows), a
// program with a coefficient no double holds is not solved (Unknown), and an optimum, read back
// as a double, is widened by a margin over the rounding of every term before it is rounded
// inwards to an integer. Infeasibility is the exact simplex's own proof, over a superset of the
// program's solutions.
#pragma once

#include "IntegerProgram.h"

namespace cairn::arrays {

IntegerProgramSolver::Ranges glpkRelaxedRanges(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                                               const std::vector<LinearExpr> &objectives, unsigned timeoutMs);

} // namespace cairn::arrays
