#include "loading/BranchSites.h"

#include <algorithm>

namespace cairn::engine {

void numberBranchSites(Program &p) {
  for (uint32_t fi = 0; fi < p.functions.size(); ++fi) {
    Function &fn = p.functions[fi];
    if (fn.isRuntime || fn.declarationOnly)
      continue;
    for (uint32_t b = 0; b < fn.blocks.size(); ++b) {
      const uint32_t end = fn.blockEnd(b);
      if (end == fn.blocks[b].firstInstr)
        continue;
      const Instr &last = fn.instrs[end - 1]; // the block's terminator
      if (!p.locations[last.loc].line)
        continue;
      std::vector<uint32_t> targets;
      if (last.op == Opcode::CondBr) {
        targets = {last.target, last.target2};
      } else if (last.op == Opcode::Switch) {
        for (uint32_t i = 0; i < last.count; ++i)
          targets.push_back(fn.switchCases[last.imm + i].target);
        targets.push_back(last.target);
      } else {
        continue;
      }
      std::vector<uint32_t> distinct;
      for (uint32_t t : targets)
        if (std::find(distinct.begin(), distinct.end(), t) == distinct.end())
          distinct.push_back(t);
      if (distinct.size() < 2) // every way leads to one block: no decision to cover
        continue;
      BasicBlock &block = fn.blocks[b];
      block.firstBranch = uint32_t(p.branchTargets.size());
      block.branchCount = uint32_t(distinct.size());
      p.branchSites.push_back({fi, b, last.loc, block.firstBranch, block.branchCount});
      p.branchTargets.insert(p.branchTargets.end(), distinct.begin(), distinct.end());
    }
  }
}

} // namespace cairn::engine
