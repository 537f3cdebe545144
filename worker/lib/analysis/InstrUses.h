// The registers an instruction reads, for the analyses that follow values through a function.
// Over-approximates: an instruction reads every operand its opcode may use (a float operation
// all three).
#pragma once

#include "cairn/engine/Program.h"

namespace cairn::engine::analysis {

template <class F> void forEachUse(const Function &fn, const Instr &in, F f) {
  auto operand = [&](const Operand &o) {
    if (!o.constant)
      f(o.index);
  };
  switch (in.op) {
  case Opcode::Br: case Opcode::Unreachable: return;
  case Opcode::Ret:
    if (in.hasValue)
      operand(in.a);
    return;
  case Opcode::ZExt: case Opcode::SExt: case Opcode::Trunc: case Opcode::Move: case Opcode::ExtractBits:
  case Opcode::Alloca: case Opcode::Load: case Opcode::CondBr: case Opcode::Switch: case Opcode::IndirectBr:
    operand(in.a);
    return;
  case Opcode::Binary: case Opcode::Compare: case Opcode::InsertBits: case Opcode::ExtractElement:
  case Opcode::Shuffle: case Opcode::Store: case Opcode::AtomicRmw:
    operand(in.a);
    operand(in.b);
    return;
  case Opcode::Gep:
    operand(in.a);
    for (uint32_t k = 0; k < in.count; ++k)
      operand(fn.gepTerms[in.imm + k].index);
    return;
  case Opcode::Call: {
    const CallSite &site = fn.callSites[in.imm];
    if (site.kind == CallKind::Indirect)
      operand(site.target);
    for (uint32_t k = 0; k < site.numArgs; ++k)
      operand(fn.callArgs[site.firstArg + k]);
    return;
  }
  default: // the rest, Select, CmpXchg, Float, ..., read at most a, b and c
    operand(in.a);
    operand(in.b);
    operand(in.c);
    return;
  }
}

} // namespace cairn::engine::analysis
