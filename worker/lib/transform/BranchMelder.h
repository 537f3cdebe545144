// One symbolic branch made into straight-line code: the two sides of a diamond (BB branches to
// T and F, each entered only from BB and jumping to the same J) aligned (Alignment.h), every
// instruction left alone given an extra copy on the other side, and both melded into one block
// whose differing operands are selects on the branch condition. The branch goes; no path forks
// there any more.
//
// The extra copies keep the program's failures (the paper's safety conditions): they are pure
// arithmetic, comparisons, casts, address computations, loads, and stores that write back what
// a load just read from the same place, so no original instruction sees their values; an extra
// division divides by one. They may fail where the original program does not (a load the
// removed branch guarded): MeldGuards records where each melded instruction is original, for
// the engine to tell real errors from those.
#pragma once

#include <cstdint>

namespace llvm {
class BasicBlock;
class Instruction;
} // namespace llvm

namespace cairn::engine::transform {

class MeldGuards;
class SymbolicValues;

struct MeldCounts {
  uint64_t selects = 0;
  uint64_t extraInstructions = 0;
};

// An instruction a side may hold for its branch to be melded (debug intrinsics are dropped).
bool meldable(const llvm::Instruction &i);

// Melds the diamond that `bb`'s conditional branch opens. False, having changed nothing, when
// the sides are too long to align.
bool meldDiamond(llvm::BasicBlock &bb, MeldGuards &guards, SymbolicValues &symbolic, MeldCounts &counts);

} // namespace cairn::engine::transform
