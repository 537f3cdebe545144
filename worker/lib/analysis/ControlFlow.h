// A function's control flow as the static analyses see it, computed from the translated
// program (Program.h) rather than from LLVM: successors and the loop forest of natural loops
// (TripCounts.h adds the trip counts of loops whose bounds are constants).
#pragma once

#include "cairn/engine/Program.h"

#include <optional>
#include <vector>

namespace cairn::engine::analysis {

struct LoopInfo {
  uint32_t header = 0;
  uint32_t parent = ~0u;           // the enclosing loop, or ~0u at the top of the nest
  std::vector<uint32_t> blocks;    // sorted
  std::vector<uint32_t> exits;     // blocks outside the loop that an edge from inside enters
  std::optional<uint32_t> tripCount; // iterations, where the bounds are constants (TripCounts.h)
};

class ControlFlow {
public:
  explicit ControlFlow(const Function &fn);

  // Distinct successors of a block, in the order its terminator names them.
  const std::vector<uint32_t> &successors(uint32_t block) const { return succ_[block]; }
  // The terminator of a block (its last instruction).
  const Instr &terminator(uint32_t block) const;
  const std::vector<LoopInfo> &loops() const { return loops_; }
  // The loops containing a block, outermost first.
  const std::vector<uint32_t> &loopsOf(uint32_t block) const { return nest_[block]; }
  // The loop whose header the block is, or ~0u.
  uint32_t loopHeaded(uint32_t block) const { return headed_[block]; }
  bool inLoop(uint32_t loop, uint32_t block) const;
  // Blocks reachable from the entry, in reverse post-order.
  const std::vector<uint32_t> &reversePostOrder() const { return rpo_; }
  // Blocks reachable from the entry in a topological order (back edges aside) in which every
  // block of a loop comes before the blocks its exits lead to: the order states catch up in
  // under merging, so that the states of a loop reach its exit together. A plain reverse
  // post-order may put an exit right after the header, ahead of the loop's body.
  const std::vector<uint32_t> &loopsFirstOrder() const { return loopsFirst_; }
  const std::vector<uint32_t> &predecessors(uint32_t block) const { return pred_[block]; }
  void setTripCount(uint32_t loop, uint32_t count) { loops_[loop].tripCount = count; }

private:
  void computeDominators();
  bool dominates(uint32_t a, uint32_t b) const;
  void findLoops();
  void orderLoopsFirst();

  const Function &fn_;
  std::vector<std::vector<uint32_t>> succ_, pred_;
  std::vector<uint32_t> rpo_, rpoIndex_, idom_, loopsFirst_;
  std::vector<LoopInfo> loops_;
  std::vector<std::vector<uint32_t>> nest_;
  std::vector<uint32_t> headed_;
};

} // namespace cairn::engine::analysis
