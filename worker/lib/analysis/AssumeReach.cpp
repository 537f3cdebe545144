#include "analysis/AssumeReach.h"

#include "analysis/ControlFlow.h"

namespace cairn::engine::analysis {

namespace {

bool isUserAssume(const Function &fn, const CallSite &cs) {
  return !fn.isRuntime && cs.kind == CallKind::Special && Special(cs.callee) == Special::Assume;
}

} // namespace

bool AssumeReach::callMayAssume(const Function &fn, const Instr &in) const {
  if (in.op != Opcode::Call)
    return false;
  const CallSite &cs = fn.callSites[in.imm];
  switch (cs.kind) {
  case CallKind::Special: return isUserAssume(fn, cs);
  case CallKind::Direct: return cs.callee < functionMay_.size() && functionMay_[cs.callee];
  case CallKind::Indirect: return programAssumes_;
  }
  return false;
}

AssumeReach::AssumeReach(const Program &program)
    : program_(program), functionMay_(program.functions.size(), false) {
  for (const Function &fn : program.functions)
    for (const Instr &in : fn.instrs)
      if (in.op == Opcode::Call && isUserAssume(fn, fn.callSites[in.imm]))
        programAssumes_ = true;
  if (!programAssumes_)
    return;
  // Callers of functions that may assume may assume: to a fixed point over the call graph.
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t f = 0; f < program.functions.size(); ++f) {
      if (functionMay_[f])
        continue;
      const Function &fn = program.functions[f];
      for (const Instr &in : fn.instrs)
        if (callMayAssume(fn, in)) {
          functionMay_[f] = true;
          changed = true;
          break;
        }
    }
  }
}

const std::vector<bool> &AssumeReach::afterBlock(uint32_t function) {
  auto it = afterBlock_.find(function);
  if (it != afterBlock_.end())
    return it->second;
  const Function &fn = program_.functions[function];
  const uint32_t n = uint32_t(fn.blocks.size());
  std::vector<bool> fromEntry(n, false), after(n, false);
  ControlFlow cfg(fn);
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t i = fn.blocks[b].firstInstr; i < fn.blockEnd(b) && !fromEntry[b]; ++i)
      fromEntry[b] = callMayAssume(fn, fn.instrs[i]);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = n; b-- > 0;) {
      if (after[b])
        continue;
      for (uint32_t s : cfg.successors(b))
        if (fromEntry[s]) {
          after[b] = fromEntry[b] = changed = true;
          break;
        }
    }
  }
  return afterBlock_.emplace(function, std::move(after)).first->second;
}

bool AssumeReach::mayAssumeFrom(uint32_t function, uint32_t block, uint32_t pc) {
  if (!programAssumes_ || !functionMay_[function])
    return false;
  const Function &fn = program_.functions[function];
  for (uint32_t i = pc; i < fn.blockEnd(block); ++i)
    if (callMayAssume(fn, fn.instrs[i]))
      return true;
  return afterBlock(function)[block];
}

} // namespace cairn::engine::analysis
