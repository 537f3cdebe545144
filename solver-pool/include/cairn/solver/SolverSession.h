// A conversation with a solver about one query that grows: constraints are added between
// checks, and every check answers for the query with all of them. A layer that refines an
// abstraction (the CEGAR array layer) asks this way, so that a backend that can keeps what it
// learned in one check for the next (Z3's and cvc5's incremental solvers) instead of starting
// the query over each round.
#pragma once

#include "cairn/expr/Expr.h"

namespace cairn {

struct SolverResponse;

class SolverSession {
public:
  virtual ~SolverSession();
  // Conjoins `constraint` (width 1) with the query for every later check.
  virtual void add(const ExprRef &constraint) = 0;
  // Is the query with everything added so far satisfiable? A Sat answer with a model requested
  // binds every symbol the query, the added constraints and its terms mention.
  virtual SolverResponse check(bool wantModel) = 0;
};

} // namespace cairn
