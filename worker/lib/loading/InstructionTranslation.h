// One LLVM instruction of a function body as the engine's Instr: operands resolved to the
// function's registers or to constant pool entries, and the function's side tables (GEP terms,
// switch cases, call sites, shuffle masks) extended as the instruction needs.
#pragma once

#include "loading/ConstantTranslation.h"
#include "cairn/engine/Program.h"

#include <cstdint>
#include <unordered_map>

namespace llvm {
class BasicBlock;
class CallInst;
class DataLayout;
class Instruction;
class Value;
} // namespace llvm

namespace cairn::engine {

using RegisterNumbers = std::unordered_map<const llvm::Value *, uint32_t>;
using BlockNumbers = std::unordered_map<const llvm::BasicBlock *, uint32_t>;

class InstructionTranslator {
public:
  InstructionTranslator(const llvm::DataLayout &dl, ConstantTranslator &constants,
                        const FunctionNumbers &functions, const RegisterNumbers &regs,
                        const BlockNumbers &blocks, Function &out)
      : dl_(dl), constants_(constants), functions_(functions), regs_(regs), blocks_(blocks),
        out_(out) {}

  Operand operand(const llvm::Value *v);

  // Fills `in` (whose dst and loc the caller set); false when the instruction leaves nothing to
  // run: a fence, an intrinsic the engine ignores.
  bool translate(llvm::Instruction &inst, Instr &in);

private:
  void translateInto(llvm::Instruction &inst, Instr &in);
  void binary(Instr &in, llvm::Instruction &inst, Kind k);
  void unary(Instr &in, llvm::Instruction &inst, Opcode op);
  void floatOp(Instr &in, llvm::Instruction &inst, FloatOp op);
  void translateCall(llvm::CallInst &call, Instr &in);

  const llvm::DataLayout &dl_;
  ConstantTranslator &constants_;
  const FunctionNumbers &functions_;
  const RegisterNumbers &regs_;
  const BlockNumbers &blocks_;
  Function &out_;
  bool skip_ = false;
};

} // namespace cairn::engine
