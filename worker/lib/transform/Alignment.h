// Which instructions of a branch's two sides become one instruction of the melded block: an
// order-preserving alignment with as many compatible pairs as possible (the longest common
// subsequence under compatibility). An instruction left alone gets an extra copy on the other
// side when the blocks are melded.
//
// Compatible: the same operation on the same types (same predicate, same flags, same element
// type). Memory accesses and address computations pair up only when they reach the same address
// on both sides: the melded access must not take a select of two addresses, which would make a
// concrete address symbolic.
#pragma once

#include <llvm/ADT/DenseSet.h>

#include <optional>
#include <utility>
#include <vector>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace cairn::engine::transform {

struct AlignedPair {
  llvm::Instruction *onTrue = nullptr; // either may be null: an instruction of the other side alone
  llvm::Instruction *onFalse = nullptr;
};

// An operation whose value depends on its operands alone: arithmetic, comparisons, casts,
// address computations, selects, aggregate parts. (Not freeze: two freezes of one undefined
// value may differ.)
bool pureOperation(const llvm::Instruction &i);

// Pairs of instructions, one from each side, that compute the same value on every path: the same
// pure operation on the same values or on congruent instructions. Either one's melded value
// serves for both.
class Congruence {
public:
  Congruence(const std::vector<llvm::Instruction *> &onTrue, const std::vector<llvm::Instruction *> &onFalse);
  bool holds(const llvm::Value *a, const llvm::Value *b) const;

private:
  llvm::DenseSet<std::pair<const llvm::Value *, const llvm::Value *>> pairs_;
};

// Null when the sides are too long to align (their product over a few million instructions).
std::optional<std::vector<AlignedPair>> alignSides(const std::vector<llvm::Instruction *> &onTrue,
                                                   const std::vector<llvm::Instruction *> &onFalse,
                                                   const Congruence &congruence);

} // namespace cairn::engine::transform
