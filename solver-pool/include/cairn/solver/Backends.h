// The core solvers. Factories keep the Z3 and cvc5 headers out of every other file.
#pragma once

#include "cairn/solver/Solver.h"

namespace cairn {

// A Z3 4.8 backend (QF_ABV; quantifiers when a query has them). Not thread-safe: one per thread.
std::unique_ptr<Solver> createZ3Solver(double timeoutSeconds = 0);
// Starts building a Z3 context on another thread, for the first Z3 solver made after to take:
// a process that will solve with Z3 calls it before its other start-up work (loading the
// program), which then hides the context's 8-60 ms.
void prepareZ3Context();

// A cvc5 1.0 backend, same contract as the Z3 one.
std::unique_ptr<Solver> createCvc5Solver(double timeoutSeconds = 0);

// Races Z3 and cvc5 on every query and returns the first definite answer.
std::unique_ptr<Solver> createPortfolioSolver(double timeoutSeconds = 0);

} // namespace cairn
