// The interpreter's concrete fast path: a run of instructions whose operands are all concrete,
// none of which can fork, end the state or call out, executed in one loop without the engine's
// per-instruction checks. The first instruction it cannot take goes the general way, and the
// run returns so that the engine checks what that instruction may have changed.
#include "interpreter/Interpreter.h"

#include "executor/Engine.h"
#include "cairn/expr/Fold.h"

namespace cairn::engine {

void Interpreter::step(ExecutionState &s) {
  if (engine_.merging.waitsAtLoopExit(s) || engine_.qceMerging.atInstruction(s))
    return;
  Frame &f = s.top();
  execute(s, f, program_.functions[f.function]);
}

uint64_t Interpreter::run(ExecutionState &s, uint64_t budget) {
  // A merge context watches every block its states enter (MergeCoordinator::waitsAtLoopExit).
  if (!s.merges.empty()) {
    step(s);
    return 1;
  }
  // A merging strategy stops states at block entries (QceMerging::atInstruction): a run ends
  // where the next block begins, and the next run starts with that check.
  const bool toBlockEnd = engine_.qceMerging.enabled();
  if (toBlockEnd && engine_.qceMerging.atInstruction(s))
    return 1;
  Frame &f = s.top();
  const Function &fn = program_.functions[f.function];
  for (uint64_t done = 1; done <= budget; ++done)
    if (!execute(s, f, fn) || (toBlockEnd && f.pc == fn.blocks[f.block].firstInstr))
      return done;
  return budget;
}

// One instruction of the frame's function: counted and covered, then taken by the fast path or
// the general one (Interpreter.cpp). Inline in run()'s loop: a call per instruction cost ~28
// host instructions of checksum.c's ~137.
inline bool Interpreter::execute(ExecutionState &s, Frame &f, const Function &fn) {
  engine_.currentInstr = (uint64_t(f.function) << 32) | f.pc;
  const Instr &in = fn.instrs[f.pc];
  engine_.currentLoc = in.loc;
  ++s.instructions;
  ++s.instructionsSinceNewCoverage;
  if (s.instructions <= s.prefix.replayInstructions)
    ++stats_.replayInstructions;
  else
    ++stats_.instructions;
  if (!fn.isRuntime)
    cover(s, in.loc);
  if (runConcrete(s, f, in))
    return true;
  general(s, f, fn, in);
  return false;
}

// One instruction of the fast path: true when done; false, having moved only the frame's pc
// past it (as general() expects), when an operand is symbolic or a check is due.
bool Interpreter::runConcrete(ExecutionState &s, Frame &f, const Instr &in) {
  ++f.pc;
  if (in.lanes > 1)
    return false;
  u128 x, y;
  switch (in.op) {
  case Opcode::Binary:
    if (!concreteOperand(f, in.a, x) || !concreteOperand(f, in.b, y) || !foldsWithoutChecks(in, y))
      return false;
    f.regs[in.dst] = Value(foldBinary(in.kind, x, y, in.width));
    return true;
  case Opcode::Compare:
    if (!concreteOperand(f, in.a, x) || !concreteOperand(f, in.b, y))
      return false;
    f.regs[in.dst] = Value(foldBinary(in.kind, x, y, in.imm) ^ u128(in.negate));
    return true;
  case Opcode::ZExt:
  case Opcode::Move:
    if (!concreteOperand(f, in.a, x))
      return false;
    f.regs[in.dst] = Value(x);
    return true;
  case Opcode::SExt:
    if (!concreteOperand(f, in.a, x))
      return false;
    f.regs[in.dst] = Value(foldUnary(Kind::SExt, x, in.imm, in.width));
    return true;
  case Opcode::Trunc:
    if (!concreteOperand(f, in.a, x))
      return false;
    f.regs[in.dst] = Value(x & widthMask(in.width));
    return true;
  case Opcode::ExtractBits:
    if (!concreteOperand(f, in.a, x))
      return false;
    f.regs[in.dst] = Value((x >> in.imm) & widthMask(in.width));
    return true;
  case Opcode::Select:
    if (!concreteOperand(f, in.a, x))
      return false;
    f.regs[in.dst] = eval(f, x ? in.b : in.c);
    return true;
  case Opcode::Load: {
    uint64_t v;
    const unsigned bytes = (in.width + 7) / 8;
    if (!concreteOperand(f, in.a, x) || !engine_.memory.loadPlain(s, uint64_t(x), bytes, v))
      return false;
    f.regs[in.dst] = Value(in.width % 8 ? u128(v) & widthMask(in.width) : u128(v));
    return true;
  }
  case Opcode::Store:
    return concreteOperand(f, in.b, x) && concreteOperand(f, in.a, y) &&
           engine_.memory.storePlain(s, uint64_t(x), (in.width + 7) / 8, uint64_t(y));
  case Opcode::Br:
    enterBlock(f, in.target, f.block);
    return true;
  case Opcode::CondBr:
    if (!concreteOperand(f, in.a, x))
      return false;
    follow(s, x ? in.target : in.target2, f.block);
    return true;
  default:
    return false;
  }
}

} // namespace cairn::engine
