// The loop structure of a function, for loop merging.
#pragma once

#include "cairn/engine/Program.h"

#include <unordered_map>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace cairn::engine {

// Fills `out.loops` and `out.blockLoop` with the function's top-level natural loops.
void describeLoops(llvm::Function &f,
                   const std::unordered_map<const llvm::BasicBlock *, uint32_t> &blockIndex,
                   Function &out);

} // namespace cairn::engine
