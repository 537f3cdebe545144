// What the heap holds when the program ends on a path (the entry function returns, or exit() is
// called), checked with --check-leaks and --check-memcleanup as SV-COMP's memory properties:
//  - valid-memtrack (--check-leaks): a block still allocated that the program can no longer
//    reach is a `leak unreachable-memory` error. The roots are the globals and argv; after
//    exit() the live stack's objects too, as the program's variables still point to that memory
//    when it ends. Registers are not roots: the values they keep are not known to be live, and
//    at -O0 every variable is a stack object (a pointer an optimised build keeps only in a
//    register across exit() is not seen). A block that becomes unreachable during the run and
//    stays allocated is found at the program's end, not where its last pointer was lost.
//  - valid-memcleanup (--check-memcleanup): any block still allocated is a
//    `leak unfreed-memory` error.
// The error is at the return or the exit() call; one per path, memtrack's first.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Executor.h"

#include <optional>

namespace cairn::engine {

class Engine;

enum class ProgramEnd {
  Return, // from the entry function: its frame's objects are gone already, its frame is not
  Exit,   // exit() with the stack as it is
};

// The error the heap is at the program's end, if the checks asked for find one. Asking the
// solver may end the state instead (a solver failure): the caller then leaves it alone.
std::optional<ErrorReport> heapErrorAtEnd(Engine &engine, ExecutionState &s, ProgramEnd how);

} // namespace cairn::engine
