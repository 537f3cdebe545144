// The name of a core solver kind (private to solver-pool/lib): the word parseCoreSolverKind
// reads, which layer names and statistics also carry.
#pragma once

#include "cairn/solver/SolverChain.h"

namespace cairn {

const char *coreName(CoreSolverKind k);

} // namespace cairn
