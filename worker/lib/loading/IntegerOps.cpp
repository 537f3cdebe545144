#include "loading/IntegerOps.h"

#include "cairn/engine/ProgramLoader.h"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instruction.h>

namespace cairn::engine {

std::optional<Kind> binaryKind(unsigned opcode) {
  using llvm::Instruction;
  switch (opcode) {
  case Instruction::Add: return Kind::Add;
  case Instruction::Sub: return Kind::Sub;
  case Instruction::Mul: return Kind::Mul;
  case Instruction::UDiv: return Kind::UDiv;
  case Instruction::SDiv: return Kind::SDiv;
  case Instruction::URem: return Kind::URem;
  case Instruction::SRem: return Kind::SRem;
  case Instruction::And: return Kind::And;
  case Instruction::Or: return Kind::Or;
  case Instruction::Xor: return Kind::Xor;
  case Instruction::Shl: return Kind::Shl;
  case Instruction::LShr: return Kind::LShr;
  case Instruction::AShr: return Kind::AShr;
  default: return std::nullopt;
  }
}

Comparison comparison(unsigned predicate) {
  using llvm::CmpInst;
  switch (predicate) {
  case CmpInst::ICMP_EQ: return {Kind::Eq};
  case CmpInst::ICMP_NE: return {Kind::Eq, false, true};
  case CmpInst::ICMP_ULT: return {Kind::Ult};
  case CmpInst::ICMP_ULE: return {Kind::Ule};
  case CmpInst::ICMP_UGT: return {Kind::Ult, true};
  case CmpInst::ICMP_UGE: return {Kind::Ule, true};
  case CmpInst::ICMP_SLT: return {Kind::Slt};
  case CmpInst::ICMP_SLE: return {Kind::Sle};
  case CmpInst::ICMP_SGT: return {Kind::Slt, true};
  case CmpInst::ICMP_SGE: return {Kind::Sle, true};
  default: throw LoadError("unsupported comparison");
  }
}

} // namespace cairn::engine
