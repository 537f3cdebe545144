#include "analysis/SlotLiveness.h"

#include "analysis/BackwardFlow.h"
#include "analysis/InstrUses.h"

#include <unordered_set>

namespace cairn::engine::analysis {

SlotLiveness::SlotLiveness(const Program &program, const Function &fn) : fn_(fn) {
  std::unordered_map<uint32_t, uint64_t> candidates; // alloca register -> size in bytes
  for (const Instr &in : fn.instrs)
    if (in.op == Opcode::Alloca && in.a.constant && in.dst < fn.numRegs && in.a.index < program.constants.size())
      candidates.emplace(in.dst, uint64_t(program.constants[in.a.index]) * in.imm);
  if (candidates.empty())
    return;
  std::unordered_set<uint32_t> escaped;
  for (const Instr &in : fn.instrs) {
    // The address operand of a load or store is a use that does not escape; every other
    // operand naming the slot does (a store of its address, a call, an offset).
    const Operand *address = in.op == Opcode::Load ? &in.a : in.op == Opcode::Store ? &in.b : nullptr;
    if (in.op == Opcode::Store && !in.a.constant && candidates.count(in.a.index))
      escaped.insert(in.a.index);
    forEachUse(fn, in, [&](uint32_t r) {
      if (candidates.count(r) && !(address && !address->constant && address->index == r))
        escaped.insert(r);
    });
  }
  for (const PhiMove &m : fn.phiMoves)
    if (!m.src.constant && candidates.count(m.src.index))
      escaped.insert(m.src.index);
  for (const GuardLiteral &g : fn.guardLiterals)
    if (!g.cond.constant)
      escaped.insert(g.cond.index);
  for (const auto &[reg, bytes] : candidates)
    if (!escaped.count(reg) && bytes) {
      slotIndex_.emplace(reg, int(slots_.size()));
      slots_.push_back(reg);
      slotBytes_.push_back(bytes);
    }
  if (slots_.empty())
    return;
  liveOut_ = backwardFixpoint(
      fn, std::vector<bool>(slots_.size(), false),
      [](uint32_t, uint32_t, const std::vector<bool> &entry) { return entry; },
      [&](uint32_t b, const std::vector<bool> &exit) { return walkBack(exit, b, fn.blocks[b].firstInstr); });
}

int SlotLiveness::slotOf(const Operand &address) const {
  if (address.constant)
    return -1;
  auto it = slotIndex_.find(address.index);
  return it == slotIndex_.end() ? -1 : it->second;
}

void SlotLiveness::step(const Instr &in, std::vector<bool> &live) const {
  if (in.op == Opcode::Load) {
    if (int k = slotOf(in.a); k >= 0)
      live[size_t(k)] = true;
  } else if (in.op == Opcode::Store) {
    if (int k = slotOf(in.b); k >= 0 && uint64_t(in.width) == slotBytes_[size_t(k)] * 8)
      live[size_t(k)] = false; // written whole: what it held before is never read
  }
}

std::vector<bool> SlotLiveness::walkBack(std::vector<bool> live, uint32_t block, uint32_t pc) const {
  const uint32_t end = fn_.blockEnd(block);
  for (uint32_t i = end; i-- > pc;)
    step(fn_.instrs[i], live);
  return live;
}

const std::vector<bool> &SlotLiveness::liveBefore(uint32_t block, uint32_t pc) {
  static const std::vector<bool> none;
  if (slots_.empty())
    return none;
  auto it = cache_.find(pc);
  if (it == cache_.end())
    it = cache_.emplace(pc, walkBack(liveOut_[block], block, pc)).first;
  return it->second;
}

} // namespace cairn::engine::analysis
