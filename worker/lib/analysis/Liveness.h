// Which registers of a function may still be read, at a block's entry (its phi moves done) or
// after a call: what a merge must keep apart. A register no later instruction reads can hold
// either state's value, so the merged state needs no if-then-else for it; unoptimised code
// leaves most of a frame's registers dead at every block entry (each local lives in memory).
//
// Over-approximates: an instruction reads every operand its opcode may use (a float
// operation all three), writes only its result register, and the registers of melded
// instructions' guards are live everywhere.
#pragma once

#include "cairn/engine/Program.h"

#include <unordered_map>
#include <vector>

namespace cairn::engine::analysis {

class Liveness {
public:
  explicit Liveness(const Function &fn);

  // The registers that may be read after `pc`'s instruction starts (pc: an instruction of
  // `block`), one flag per register.
  const std::vector<bool> &liveBefore(uint32_t block, uint32_t pc);

private:
  // The registers live before `pc` of `block`, from those live at the block's exit.
  std::vector<bool> walkBack(std::vector<bool> live, uint32_t block, uint32_t pc) const;

  const Function &fn_;
  std::vector<std::vector<bool>> liveOut_; // per block, phi sources of its out-edges included
  std::vector<bool> always_;               // guard registers
  std::unordered_map<uint32_t, std::vector<bool>> cache_; // by pc
};

} // namespace cairn::engine::analysis
