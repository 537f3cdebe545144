#include "analysis/ControlFlow.h"

#include <algorithm>
#include <map>

namespace cairn::engine::analysis {

namespace {

// The blocks reachable from block 0, in the reverse of the order a depth-first search taking
// each block's successors in the given order finishes them.
std::vector<uint32_t> reversePostOrderFromEntry(const std::vector<std::vector<uint32_t>> &successors) {
  std::vector<uint8_t> seen(successors.size(), 0);
  std::vector<uint32_t> post;
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  seen[0] = 1;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    if (next < successors[b].size()) {
      uint32_t s = successors[b][next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back({s, 0});
      }
      continue;
    }
    post.push_back(b);
    stack.pop_back();
  }
  return {post.rbegin(), post.rend()};
}

} // namespace

ControlFlow::ControlFlow(const Function &fn) : fn_(fn) {
  const size_t n = fn.blocks.size();
  succ_.resize(n);
  pred_.resize(n);
  nest_.resize(n);
  headed_.assign(n, ~0u);
  auto add = [&](uint32_t from, uint32_t to) {
    if (to < n && std::find(succ_[from].begin(), succ_[from].end(), to) == succ_[from].end())
      succ_[from].push_back(to);
  };
  for (uint32_t b = 0; b < n; ++b) {
    const Instr &t = terminator(b);
    switch (t.op) {
    case Opcode::Br: add(b, t.target); break;
    case Opcode::CondBr:
      add(b, t.target);
      add(b, t.target2);
      break;
    case Opcode::Switch:
      add(b, t.target);
      [[fallthrough]];
    case Opcode::IndirectBr:
      for (uint32_t k = 0; k < t.count; ++k)
        add(b, fn.switchCases[t.imm + k].target);
      break;
    default: break;
    }
    for (uint32_t s : succ_[b])
      pred_[s].push_back(b);
  }
  if (n) {
    computeDominators();
    findLoops();
    orderLoopsFirst();
  }
}

// A depth-first search that, at each block, enters the successors leaving the most of its
// loops first: they finish first and so come last in the reverse post-order. In a reducible
// graph every search sees the same back edges, so the order stays topological.
void ControlFlow::orderLoopsFirst() {
  const size_t n = fn_.blocks.size();
  auto shared = [&](uint32_t b, uint32_t s) { // loops of b that s is in too
    uint32_t k = 0;
    for (uint32_t l : nest_[b])
      k += inLoop(l, s);
    return k;
  };
  std::vector<std::vector<uint32_t>> order(n);
  for (uint32_t b = 0; b < n; ++b) {
    order[b] = succ_[b];
    std::stable_sort(order[b].begin(), order[b].end(),
                     [&](uint32_t x, uint32_t y) { return shared(b, x) < shared(b, y); });
  }
  loopsFirst_ = reversePostOrderFromEntry(order);
}

const Instr &ControlFlow::terminator(uint32_t block) const {
  const uint32_t end = fn_.blockEnd(block);
  return fn_.instrs[end - 1];
}

bool ControlFlow::inLoop(uint32_t loop, uint32_t block) const {
  const std::vector<uint32_t> &b = loops_[loop].blocks;
  return std::binary_search(b.begin(), b.end(), block);
}

// Cooper, Harvey and Kennedy's iterative dominators over the reverse post-order.
void ControlFlow::computeDominators() {
  const size_t n = fn_.blocks.size();
  rpo_ = reversePostOrderFromEntry(succ_);
  rpoIndex_.assign(n, ~0u);
  for (uint32_t i = 0; i < rpo_.size(); ++i)
    rpoIndex_[rpo_[i]] = i;
  idom_.assign(n, ~0u);
  idom_[0] = 0;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rpoIndex_[a] > rpoIndex_[b])
        a = idom_[a];
      while (rpoIndex_[b] > rpoIndex_[a])
        b = idom_[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : rpo_) {
      if (b == 0)
        continue;
      uint32_t d = ~0u;
      for (uint32_t p : pred_[b])
        if (idom_[p] != ~0u)
          d = d == ~0u ? p : intersect(p, d);
      if (d != idom_[b]) {
        idom_[b] = d;
        changed = true;
      }
    }
  }
}

bool ControlFlow::dominates(uint32_t a, uint32_t b) const {
  if (idom_[b] == ~0u)
    return false;
  for (;;) {
    if (a == b)
      return true;
    if (b == 0)
      return false;
    b = idom_[b];
  }
}

// Natural loops: a back edge t -> h (h dominates t) and the blocks that reach t without passing
// h. Back edges to one header make one loop. Edges that close a cycle without a dominating
// header (irreducible flow) make no loop; the analyses cut such cycles where they meet them.
void ControlFlow::findLoops() {
  std::map<uint32_t, std::vector<uint32_t>> bodies; // header -> blocks
  for (uint32_t t : rpo_)
    for (uint32_t h : succ_[t]) {
      if (!dominates(h, t))
        continue;
      std::vector<uint32_t> &body = bodies[h];
      if (body.empty())
        body.push_back(h);
      std::vector<uint32_t> work{t};
      while (!work.empty()) {
        uint32_t b = work.back();
        work.pop_back();
        if (std::find(body.begin(), body.end(), b) != body.end())
          continue;
        body.push_back(b);
        for (uint32_t p : pred_[b])
          if (idom_[p] != ~0u)
            work.push_back(p);
      }
    }
  for (auto &[header, body] : bodies) {
    LoopInfo &l = loops_.emplace_back();
    l.header = header;
    std::sort(body.begin(), body.end());
    l.blocks = std::move(body);
    headed_[header] = uint32_t(loops_.size() - 1);
  }
  // Nesting: a loop's parent is the smallest other loop holding its header.
  for (uint32_t i = 0; i < loops_.size(); ++i) {
    size_t best = ~size_t(0);
    for (uint32_t j = 0; j < loops_.size(); ++j)
      if (j != i && loops_[j].blocks.size() > loops_[i].blocks.size() && inLoop(j, loops_[i].header) &&
          loops_[j].blocks.size() < best) {
        best = loops_[j].blocks.size();
        loops_[i].parent = j;
      }
    for (uint32_t b : loops_[i].blocks)
      for (uint32_t s : succ_[b])
        if (!inLoop(i, s) && std::find(loops_[i].exits.begin(), loops_[i].exits.end(), s) == loops_[i].exits.end())
          loops_[i].exits.push_back(s);
  }
  for (uint32_t b = 0; b < fn_.blocks.size(); ++b) {
    for (uint32_t i = 0; i < loops_.size(); ++i)
      if (inLoop(i, b))
        nest_[b].push_back(i);
    std::sort(nest_[b].begin(), nest_[b].end(),
              [&](uint32_t x, uint32_t y) { return loops_[x].blocks.size() > loops_[y].blocks.size(); });
  }
}

} // namespace cairn::engine::analysis
