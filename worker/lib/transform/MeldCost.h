// The transformation's cost model: the melds that would leave a symbolic pointer in memory.
//
// A meld trades a fork for if-then-else values. Where those values stay within the iteration
// that made them (a character converted, a minimum chosen), later queries carry one small term
// and the trade pays. Where a melded value becomes a pointer that is stored (a reader advancing
// its buffer pointer by a decoded character's width, `p->last += n`), every later access
// through that pointer is at a symbolic address, each step adds another if-then-else to it, and
// every query from then on carries the whole chain: the paper's limitation 2 (no cost model)
// and its libyaml finding. Such branches are left to fork.
//
// Statically: a pointer a side stores, or a phi of the join whose incoming values differ and
// that through arithmetic, casts, address computations, selects and phis becomes a pointer
// stored to memory.
#pragma once

#include <vector>

namespace llvm {
class BasicBlock;
} // namespace llvm

namespace cairn::engine::transform {

// `from`: the block whose branch would be melded; `sides`: the blocks that would be melded
// (one for an if-then); `join`: where they meet.
bool leavesSymbolicPointerInMemory(const llvm::BasicBlock &from, const std::vector<llvm::BasicBlock *> &sides,
                                   const llvm::BasicBlock &join);

} // namespace cairn::engine::transform
