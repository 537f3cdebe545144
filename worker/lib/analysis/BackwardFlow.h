// The fixpoint of a backward may-analysis over a function's blocks, a flag per fact (live
// registers, live stack slots): what holds at a block's exit is `initial` joined with what
// each successor passes back along the edge, and what holds at its entry is the block walked
// backwards from its exit.
#pragma once

#include "analysis/ControlFlow.h"

#include <vector>

namespace cairn::engine::analysis {

// `alongEdge(successor, block, entryOfSuccessor)`: the facts at `block`'s exit that the edge
// into `successor` contributes (the successor's entry facts, adjusted for the edge's own
// moves); `walk(block, exit)`: the facts at `block`'s entry. Returns each block's exit facts.
template <class AlongEdge, class Walk>
std::vector<std::vector<bool>> backwardFixpoint(const Function &fn, const std::vector<bool> &initial,
                                                AlongEdge alongEdge, Walk walk) {
  const size_t n = fn.blocks.size();
  std::vector<std::vector<bool>> exit(n, initial), entry(n, initial);
  if (!n)
    return exit;
  ControlFlow cfg(fn);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = uint32_t(n); b-- > 0;) {
      std::vector<bool> out = initial;
      for (uint32_t s : cfg.successors(b)) {
        const std::vector<bool> passed = alongEdge(s, b, entry[s]);
        for (size_t k = 0; k < out.size(); ++k)
          if (passed[k])
            out[k] = true;
      }
      if (out != exit[b]) {
        exit[b] = std::move(out);
        changed = true;
      }
      std::vector<bool> in = walk(b, exit[b]);
      if (in != entry[b]) {
        entry[b] = std::move(in);
        changed = true;
      }
    }
  }
  return exit;
}

} // namespace cairn::engine::analysis
