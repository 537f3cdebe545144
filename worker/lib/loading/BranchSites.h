// The decisions of the user's program, numbered once at load time so that the interpreter
// records a branch taken with an array store (lcov's branch records, CoverageReport.h).
#pragma once

#include "cairn/engine/Program.h"

namespace cairn::engine {

// Fills Program::branchSites and Program::branchTargets, and each deciding block's
// firstBranch/branchCount: every conditional branch and every switch of a function of the
// user's program (not the runtime's or the libc's) that has a source line and at least two
// distinct successors. A conditional branch's edges are its true then its false successor; a
// switch's are its distinct case successors in case order, then the default's when no case
// goes there.
void numberBranchSites(Program &p);

} // namespace cairn::engine
