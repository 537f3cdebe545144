#include "analysis/Liveness.h"

#include "analysis/BackwardFlow.h"
#include "analysis/InstrUses.h"

namespace cairn::engine::analysis {

Liveness::Liveness(const Function &fn) : fn_(fn), always_(fn.numRegs, false) {
  for (const GuardLiteral &g : fn.guardLiterals)
    if (!g.cond.constant && g.cond.index < fn.numRegs)
      always_[g.cond.index] = true;
  // An edge's phi moves write their destinations and read their sources.
  auto alongEdge = [&](uint32_t s, uint32_t b, const std::vector<bool> &entry) {
    std::vector<bool> in = entry;
    for (const BasicBlock::Edge &e : fn.blocks[s].edges)
      if (e.from == b) {
        for (uint32_t i = 0; i < e.count; ++i)
          in[fn.phiMoves[e.first + i].dst] = false;
        for (uint32_t i = 0; i < e.count; ++i)
          if (const Operand &src = fn.phiMoves[e.first + i].src; !src.constant)
            in[src.index] = true;
      }
    return in;
  };
  liveOut_ = backwardFixpoint(fn, always_, alongEdge, [&](uint32_t b, const std::vector<bool> &exit) {
    return walkBack(exit, b, fn.blocks[b].firstInstr);
  });
}

std::vector<bool> Liveness::walkBack(std::vector<bool> live, uint32_t block, uint32_t pc) const {
  const uint32_t end = fn_.blockEnd(block);
  for (uint32_t i = end; i-- > pc;) {
    const Instr &in = fn_.instrs[i];
    if (in.dst < fn_.numRegs && !always_[in.dst])
      live[in.dst] = false;
    forEachUse(fn_, in, [&](uint32_t r) {
      if (r < fn_.numRegs)
        live[r] = true;
    });
  }
  return live;
}

const std::vector<bool> &Liveness::liveBefore(uint32_t block, uint32_t pc) {
  auto it = cache_.find(pc);
  if (it == cache_.end())
    it = cache_.emplace(pc, walkBack(liveOut_[block], block, pc)).first;
  return it->second;
}

} // namespace cairn::engine::analysis
