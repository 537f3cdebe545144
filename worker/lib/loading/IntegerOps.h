// LLVM's integer operations as the engine's expression kinds, shared by the instruction
// translator and the constant folder (constant expressions use the same opcodes).
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>

namespace cairn::engine {

// The kind of a binary integer opcode (llvm::Instruction::Add .. AShr), if it is one.
std::optional<Kind> binaryKind(unsigned opcode);

// An icmp predicate as the engine compares: kind (Eq, Ult, Ule, Slt, Sle) on the operands,
// swapped first for the greater-than predicates, the result negated for ne.
struct Comparison {
  Kind kind;
  bool swap = false;
  bool negate = false;
};
// Throws LoadError for a predicate that is no integer comparison.
Comparison comparison(unsigned predicate);

} // namespace cairn::engine
