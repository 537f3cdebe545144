// Whether two states standing at the same instruction of the program's outermost frame have
// nothing ahead but its end: straight-line code to the return that runs alike on both paths.
// A merge there only ends, and the merged state's one use is its test (StateMerging.h,
// mergeEnding).
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

namespace cairn::engine {

// True when, from where `a` and `b` stand (one frame each, at the same instruction), the code
// up to the frame's return has no call, no branch but unconditional ones, and no instruction
// that could fail on one path and not on the other: division and signed-overflow arithmetic,
// allocation, floating point, vector and melded instructions end the walk, and memory is
// accessed only at addresses both states hold as the same concrete value, computed before.
bool onlyEndAhead(const Function &fn, const ExecutionState &a, const ExecutionState &b);

} // namespace cairn::engine
