#include "analysis/Liveness.h"

#include "analysis/ControlFlow.h"
#include "analysis/InstrUses.h"

namespace cairn::engine::analysis {

Liveness::Liveness(const Function &fn) : fn_(fn), always_(fn.numRegs, false) {
  for (const GuardLiteral &g : fn.guardLiterals)
    if (!g.cond.constant && g.cond.index < fn.numRegs)
      always_[g.cond.index] = true;
  const size_t n = fn.blocks.size();
  liveOut_.assign(n, always_);
  if (!n)
    return;
  ControlFlow cfg(fn);
  // Live at a block's entry, after its phi moves: computed from liveOut_ by walkBack.
  std::vector<std::vector<bool>> liveIn(n, always_);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = uint32_t(n); b-- > 0;) {
      std::vector<bool> out = always_;
      for (uint32_t s : cfg.successors(b)) {
        std::vector<bool> in = liveIn[s];
        for (const BasicBlock::Edge &e : fn.blocks[s].edges)
          if (e.from == b) {
            for (uint32_t i = 0; i < e.count; ++i)
              in[fn.phiMoves[e.first + i].dst] = false;
            for (uint32_t i = 0; i < e.count; ++i)
              if (const Operand &src = fn.phiMoves[e.first + i].src; !src.constant)
                in[src.index] = true;
          }
        for (uint32_t r = 0; r < fn.numRegs; ++r)
          if (in[r])
            out[r] = true;
      }
      if (out != liveOut_[b]) {
        liveOut_[b] = std::move(out);
        changed = true;
      }
      std::vector<bool> in = walkBack(b, fn.blocks[b].firstInstr);
      if (in != liveIn[b]) {
        liveIn[b] = std::move(in);
        changed = true;
      }
    }
  }
}

std::vector<bool> Liveness::walkBack(uint32_t block, uint32_t pc) const {
  std::vector<bool> live = liveOut_[block];
  const uint32_t end = block + 1 < fn_.blocks.size() ? fn_.blocks[block + 1].firstInstr : uint32_t(fn_.instrs.size());
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
    it = cache_.emplace(pc, walkBack(block, pc)).first;
  return it->second;
}

} // namespace cairn::engine::analysis
