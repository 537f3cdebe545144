// The interpreter's concrete fast path: a run of instructions whose operands are all concrete,
// none of which can fork, end the state or call out, executed in one loop without the general
// step's per-instruction checks. The first instruction it cannot take goes through step(),
// and the run returns so that the engine checks what that instruction may have changed.
#include "interpreter/Interpreter.h"

#include "executor/Engine.h"
#include "cairn/expr/Fold.h"

namespace cairn::engine {

uint64_t Interpreter::run(ExecutionState &s, uint64_t budget) {
  // A merge context watches every block its states enter (MergeCoordinator::waitsAtLoopExit).
  if (!s.merges.empty()) {
    step(s);
    return 1;
  }
  Frame &f = s.top();
  const Function &fn = program_.functions[f.function];
  uint64_t done = 0;
  for (; done < budget; ++done) {
    const uint32_t pc = f.pc;
    const Instr &in = fn.instrs[pc];
    if (!runConcrete(s, f, in)) {
      f.pc = pc;
      step(s);
      return done + 1;
    }
    ++s.instructions;
    ++s.instructionsSinceNewCoverage;
    ++stats_.instructions;
    if (!fn.isRuntime)
      cover(s, in.loc);
    engine_.currentLoc = in.loc; // read only when something is reported, but then it must be right
    engine_.currentInstr = (uint64_t(f.function) << 32) | pc;
  }
  return done;
}

// One instruction of the fast path, done as step() would do it; false, having changed nothing
// but possibly the frame's pc, when step() must run it.
bool Interpreter::runConcrete(ExecutionState &s, Frame &f, const Instr &in) {
  if (in.lanes > 1)
    return false;
  ++f.pc;
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
