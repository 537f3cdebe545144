// The UNSAT pre-check of type- and interval-aware array solving (Algorithm 3 of the ISSTA '21
// paper): the constraints without array reads, linearised, bound every read's index by an
// integer program (its least and greatest value); the values the array holds at the positions
// in that interval (only those at the read's offset within an element, by the array's type)
// bound the read; with each read replaced by a variable so bounded, an infeasible program
// means the query is UNSAT, decided without an SMT call. The index intervals are what the
// axiom pool (ArrayAxioms.h) prunes by.
#pragma once

#include "ArrayReads.h"
#include "IntegerProgram.h"

#include <unordered_map>

namespace cairn::arrays {

struct PrecheckResult {
  enum class Outcome : uint8_t {
    Unsat,   // the over-approximation is infeasible
    Unknown, // it is feasible: the intervals hold
    Skipped, // a symbolic write, or nothing to check: no intervals
  };
  Outcome outcome = Outcome::Skipped;
  // Per read index term (byte-level), the values it can take; a term not listed may take any.
  std::unordered_map<const Expr *, Interval> indexIntervals;
  uint32_t variables = 0; // of the integer program
  uint32_t constraints = 0;
};

// `conjuncts` is the query's constraints and its expression; `reads` their reads.
PrecheckResult precheck(const std::vector<const Expr *> &conjuncts, const QueryReads &reads,
                        const ArrayTypes *types, IntegerProgramSolver &ilp);

// The interval of `index` a precheck found, or the whole range of its width.
Interval intervalOf(const PrecheckResult &r, const Expr *index);

} // namespace cairn::arrays
