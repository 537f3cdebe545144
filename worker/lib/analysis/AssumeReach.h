// Where a klee_assume of the user's program may still run: a merge before one is refused
// (QceMerging), since the assumption's error is per path. klee_assume(c) is a user error on
// a path whose condition contradicts c; the merged state's condition is the disjunction of its
// paths', which c need not contradict when one path's does, so the error would go unreported.
// Checking each path of a merged state apart would ask as many queries as the merge saved.
//
// The runtime's own klee_assume calls are left out: each fixes a value to one the solver gave
// for it (a concretisation), which never contradicts the path. An indirect call may reach any
// function of the program.
#pragma once

#include "cairn/engine/Program.h"

#include <unordered_map>
#include <vector>

namespace cairn::engine::analysis {

class AssumeReach {
public:
  explicit AssumeReach(const Program &program);

  // Whether a user klee_assume may run from `pc` (an instruction of `block` of `function`,
  // that one included) before the function returns; the callers' continuations are theirs.
  bool mayAssumeFrom(uint32_t function, uint32_t block, uint32_t pc);

private:
  bool callMayAssume(const Function &fn, const Instr &in) const;
  // Per block of the function: whether a successor may assume from its entry.
  const std::vector<bool> &afterBlock(uint32_t function);

  const Program &program_;
  std::vector<bool> functionMay_; // per function: it, or a function it calls, may assume
  bool programAssumes_ = false;
  std::unordered_map<uint32_t, std::vector<bool>> afterBlock_; // by function
};

} // namespace cairn::engine::analysis
