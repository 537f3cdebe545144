#include "merging/EndAhead.h"

#include "merging/StateMerging.h"

#include <algorithm>
#include <vector>

namespace cairn::engine {

namespace {

// Blocks followed before the walk gives up: the code after a program's last decision is a
// few blocks of return-value moves at most.
constexpr unsigned kMaxBlocks = 8;

bool failsNever(const Instr &in) {
  switch (in.op) {
  case Opcode::Compare:
  case Opcode::ZExt:
  case Opcode::SExt:
  case Opcode::Trunc:
  case Opcode::Move:
  case Opcode::Select:
  case Opcode::ExtractBits:
  case Opcode::InsertBits:
  case Opcode::Gep:
    return in.lanes == 1;
  case Opcode::Binary:
    return in.lanes == 1 && !in.noSignedWrap &&
           (in.kind == Kind::Add || in.kind == Kind::Sub || in.kind == Kind::Mul || in.kind == Kind::And ||
            in.kind == Kind::Or || in.kind == Kind::Xor);
  default:
    return false;
  }
}

} // namespace

bool onlyEndAhead(const Function &fn, const ExecutionState &a, const ExecutionState &b) {
  if (a.stack.size() != 1 || b.stack.size() != 1)
    return false;
  const Frame &fa = a.stack.back(), &fb = b.stack.back();
  if (fa.function != fb.function || fa.block != fb.block || fa.pc != fb.pc)
    return false;
  std::vector<uint32_t> writtenAhead; // registers the walk's code writes: their values are to come
  auto sameConcreteAddress = [&](const Operand &o) {
    if (o.constant)
      return true;
    if (std::find(writtenAhead.begin(), writtenAhead.end(), o.index) != writtenAhead.end())
      return false;
    const Value &x = fa.regs[o.index], &y = fb.regs[o.index];
    return x.concrete() && sameValue(x, y);
  };
  uint32_t block = fa.block, pc = fa.pc;
  for (unsigned walked = 0; walked < kMaxBlocks; ++walked) {
    const uint32_t end = fn.blockEnd(block);
    bool branched = false;
    for (uint32_t i = pc; i < end && !branched; ++i) {
      if (!fn.guardOf.empty() && fn.guardOf[i])
        return false;
      const Instr &in = fn.instrs[i];
      if (in.op == Opcode::Ret)
        return true;
      if (in.op == Opcode::Br) {
        const BasicBlock &next = fn.blocks[in.target];
        for (const BasicBlock::Edge &e : next.edges)
          if (e.from == block)
            for (uint32_t m = e.first; m < e.first + e.count; ++m)
              writtenAhead.push_back(fn.phiMoves[m].dst);
        block = in.target;
        pc = next.firstInstr;
        branched = true;
        continue;
      }
      if (in.op == Opcode::Load || in.op == Opcode::Store) {
        if (in.lanes != 1 || !sameConcreteAddress(in.op == Opcode::Load ? in.a : in.b))
          return false;
      } else if (!failsNever(in)) {
        return false;
      }
      if (in.dst != ~0u)
        writtenAhead.push_back(in.dst);
    }
    if (!branched)
      return false; // the block ended without a branch or a return
  }
  return false;
}

} // namespace cairn::engine
