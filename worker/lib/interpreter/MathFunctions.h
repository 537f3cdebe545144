// The C library's math functions (Function::math), computed by the engine wherever a call
// reaches them: as floating-point expressions where the function has an SMT meaning (floor,
// sqrt, frexp, ldexp, ...), bit for bit as musl computes them; on concrete arguments where it
// has none (sin, exp, log, ...), each concretisation counted and reported once per call site.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

#include <span>
#include <vector>

namespace cairn::engine {

class Engine;

// Calls `callee`, a math function, with `args`. True when the call is done: its result is set
// (and what it writes through a pointer written), or the state ended. False when the
// function's C body is to run instead: on `concretised`, the arguments made concrete, or on
// the original arguments when `concretised` is left empty.
bool callMath(Engine &engine, ExecutionState &s, const Instr &in, const Function &callee,
              const std::vector<Value> &args, std::vector<Value> &concretised);

// Under --float concrete: each symbolic value in `values` (of the widths in `widths`) replaced
// by the one value the path allows. False when a value can take several (the path ends with a
// model error) or the solver failed (the state is ended).
bool fixFloatOperands(Engine &engine, ExecutionState &s, std::span<Value> values, std::span<const unsigned> widths);

} // namespace cairn::engine
