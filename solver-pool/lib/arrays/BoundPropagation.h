// Bounds of an integer linear program by propagation: each constraint in turn tightens the
// interval of each of its variables by what the others' intervals leave (x + y >= 5 with
// y <= 3 gives x >= 2), round after round until nothing changes. Sound (every solution stays
// inside the intervals), much cheaper than optimisation (no solver, microseconds), and exact
// on the bound-and-sum shapes array indices mostly have; an empty interval proves the program
// infeasible.
#pragma once

#include "IntegerProgram.h"

namespace cairn::arrays {

struct Propagated {
  bool feasible = true;
  std::vector<Interval> bounds; // per variable
};

// At most `maxRounds` passes over the constraints (a chain such as x < y, y < x over wide
// ranges would otherwise shrink by one per pass).
Propagated propagateBounds(const IntegerProgram &program, unsigned maxRounds = 32);

// The bounds of `e` over the variables' intervals; nullopt on overflow.
std::optional<Interval> boundsOf(const LinearExpr &e, const std::vector<Interval> &bounds);

} // namespace cairn::arrays
