// The runtime's string and memory functions run natively where they cannot fork or fail
// (NativeStrings.cpp).
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

#include <vector>

namespace cairn::engine {

class Engine;

// Runs the call `in` of the runtime function `which` natively and sets its result: true when it
// did, false when the call must run its C body (a symbolic byte, length or pointer, or a byte
// out of an object's bounds).
bool runNatively(Engine &engine, ExecutionState &state, const Instr &in, NativeString which,
                 const std::vector<Value> &args);

} // namespace cairn::engine
