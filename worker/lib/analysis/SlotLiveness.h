// Which stack slots of a function may still be read: unoptimised code keeps each local in an
// alloca, so two states at the same place whose locals differ only in slots no path reads
// before writing them whole hold the same live store (incremental merging). A slot is tracked
// when its address is used only by loads and stores through it (not stored, passed, offset or
// merged by a phi); a store of its whole size kills it, a load of any part reads it.
#pragma once

#include "cairn/engine/Program.h"

#include <unordered_map>
#include <vector>

namespace cairn::engine::analysis {

class SlotLiveness {
public:
  SlotLiveness(const Program &program, const Function &fn);

  // The alloca registers of the tracked slots.
  const std::vector<uint32_t> &slots() const { return slots_; }
  // Per tracked slot: whether it may be read after `pc`'s instruction starts (pc: an
  // instruction of `block`).
  const std::vector<bool> &liveBefore(uint32_t block, uint32_t pc);

private:
  // -1: not a tracked slot's address; else its index in slots_.
  int slotOf(const Operand &address) const;
  void step(const Instr &in, std::vector<bool> &live) const;
  std::vector<bool> walkBack(std::vector<bool> live, uint32_t block, uint32_t pc) const;

  const Function &fn_;
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> slotBytes_;
  std::unordered_map<uint32_t, int> slotIndex_; // alloca register -> slot
  std::vector<std::vector<bool>> liveOut_;
  std::unordered_map<uint32_t, std::vector<bool>> cache_; // by pc
};

} // namespace cairn::engine::analysis
