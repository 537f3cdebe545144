// Bounds of an integer program's objectives over the integers, by CBC's branch and cut
// (--array-bounds cbc), measured against GLPK's exact simplex and Z3's optimiser.
//
// CBC computes in doubles with tolerances (integrality 1e-6, feasibility 1e-7). Its numbers are
// given as GlpkBounds gives GLPK's (RoundedProgram: the program only grows); an optimum is the
// search's proven bound, widened by a margin over the tolerances of every term before it is
// rounded inwards. An infeasibility is CBC's word only: IntegerProgramSolver confirms it exactly
// before anything answers UNSAT from it.
#pragma once

#include "IntegerProgram.h"

namespace cairn::arrays {

IntegerProgramSolver::Ranges cbcIntegerRanges(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                                              const std::vector<LinearExpr> &objectives, unsigned timeoutMs);

} // namespace cairn::arrays
