// State merging: states of one merge context waiting at the same instruction become one state
// whose path condition is the disjunction of theirs and whose registers and memory are
// if-then-else values guarded by which path was taken, written in the encoding asked for
// (MergeEncoding.h).
#pragma once

#include "cairn/engine/Program.h"
#include "merging/MergeEncoding.h"

#include <span>
#include <string>
#include <vector>

namespace cairn::engine {

struct MergeOutcome {
  bool merged = false;
  std::string refusal; // why not, when not merged
  uint64_t constraintNodes = 0;
  uint64_t valueNodes = 0;
  bool quantified = false; // written with a quantifier (MergeEncodingKind::Quantified)
  // With `validate`: formulas the solver must find unsatisfiable (MergeEncoding::obligations).
  std::vector<ExprRef> obligations;
};

// Whether two registers hold the same value (the same bits, or the same expression).
bool sameValue(const Value &a, const Value &b);

// Why `a` and `b`, waiting at the same instruction, cannot merge; empty when they can.
std::string incompatibility(const ExecutionState &a, const ExecutionState &b);
// The same, for states already known to be in the same merge contexts.
std::string incompatibilityOutsideContexts(const ExecutionState &a, const ExecutionState &b);

// Merges `group` (states of `context` waiting at the same instruction, each with `context` as
// its innermost membership) into group.front(). On refusal no state is changed. `measure`:
// count the merged formulas' nodes (MergeOutcome).
MergeOutcome mergeStates(ExprContext &ctx, const Program &program, const MergeContext &context,
                         std::span<ExecutionState *const> group, EncodingChoice encoding,
                         bool measure = true, bool validate = false);

// Merges `group`, states with nothing but their end ahead (a return from the program's outermost
// frame, no query on the way), into group.front() as it stands: the merged state's one use is
// its test, a model of the disjunction of the paths, and a model of the first path is one. No
// if-then-else is built and no condition joined; the paths' count and coverage are. The caller
// drops the others.
void mergeEnding(std::span<ExecutionState *const> group);

} // namespace cairn::engine
