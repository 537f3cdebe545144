// Constants in the engine's form: the bits a register holds for each LLVM constant (constant
// expressions folded, globals and functions at their fixed addresses), the program's constant
// pool, and the globals' memory, which their initialisers fill.
#pragma once

#include "cairn/engine/Program.h"

#include <cstdint>
#include <map>
#include <unordered_map>

namespace llvm {
class BasicBlock;
class Constant;
class DataLayout;
class Function;
class GEPOperator;
class GlobalVariable;
class Module;
} // namespace llvm

namespace cairn::engine {

// Each function's index in Program::functions, which its address is made from.
using FunctionNumbers = std::unordered_map<const llvm::Function *, uint32_t>;

class ConstantTranslator {
public:
  ConstantTranslator(const llvm::DataLayout &dl, Program &p, const FunctionNumbers &functions)
      : dl_(dl), p_(p), functions_(functions) {}

  // Gives every global its address and initial bytes, in Program::globals. Before any other
  // call: a constant may be a global's address.
  void layoutGlobals(llvm::Module &m);

  // The constant's pool entry; equal values share one.
  Operand operand(const llvm::Constant *c) { return pooled(value(c)); }

  // The value of a constant as the bits a register holds.
  u128 value(const llvm::Constant *c);

  // A label taken as a value: numbered on first sight, so a dispatch table in a global's
  // initializer and the indirectbr that jumps through it agree on the address.
  u128 labelAddress(const llvm::BasicBlock *bb);

private:
  Operand pooled(u128 v);
  void write(const llvm::Constant *c, uint8_t *out, uint64_t size);
  u128 bytesValue(const llvm::Constant *c, uint64_t size);
  u128 gepAddress(const llvm::GEPOperator *gep, u128 base);

  const llvm::DataLayout &dl_;
  Program &p_;
  const FunctionNumbers &functions_;
  std::unordered_map<const llvm::GlobalVariable *, uint64_t> globalAddress_;
  std::unordered_map<const llvm::BasicBlock *, u128> labelAddress_;
  std::map<u128, uint32_t> constantIndex_;
};

} // namespace cairn::engine
