#include "merging/IncrementalMerging.h"

#include "analysis/SlotLiveness.h"
#include "executor/Engine.h"
#include "merging/StateMerging.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_set>

namespace cairn::engine {

IncrementalMerging::IncrementalMerging(Engine &engine) : engine_(engine), live_(engine.program) {}
IncrementalMerging::~IncrementalMerging() = default;

void IncrementalMerging::branched(ExecutionState &taken, ExecutionState &other) {
  if (!engine_.options.merging.incremental)
    return;
  arrive(taken);
  arrive(other);
  // The side where the condition failed goes first: in disjunctive code the side where it held
  // has reached the join already and waits there, a candidate for the other side once it gets
  // there.
  if (!engine_.isTerminated(&taken) && !engine_.isTerminated(&other))
    engine_.searcher().pickBefore(&other, &taken);
}

void IncrementalMerging::arrive(ExecutionState &s) {
  if (s.merges.empty() || engine_.isTerminated(&s))
    return;
  MergeContext &c = *s.merges.back().context;
  const Frame &top = s.stack.back();
  std::vector<std::pair<uint64_t, uint64_t>> &here =
      c.unrun[(uint64_t(top.function) << 44) ^ (uint64_t(top.block) << 22) ^ top.pc];
  ExecutionState *best = nullptr;
  size_t bestShared = 0;
  std::vector<std::pair<uint64_t, uint64_t>> still;
  for (const auto &[id, instructions] : here) {
    ExecutionState *o = engine_.liveState(id);
    if (!o || o->instructions != instructions || o->merges.empty() || o->merges.back().context.get() != &c ||
        std::find(c.arrived.begin(), c.arrived.end(), o) != c.arrived.end())
      continue; // ended, ran on, left the context or waits at its end: no longer a candidate
    still.emplace_back(id, instructions);
    const Frame &theirs = o->stack.back();
    if (theirs.function != top.function || theirs.block != top.block || theirs.pc != top.pc)
      continue;
    // The shared prefix of the two paths: the lowest common ancestor.
    size_t shared = 0;
    while (shared < s.constraints.size() && shared < o->constraints.size() &&
           s.constraints[shared] == o->constraints[shared])
      ++shared;
    const size_t mine = s.constraints.size() - shared, added = o->constraints.size() - shared;
    if (shared < c.prefixConstraints || !mine || !added || (mine != 1 && added != 1))
      continue; // one path a prefix of the other, or the ancestor is the parent of neither
    if (best && o->constraints.size() >= best->constraints.size())
      continue; // the highest candidate wins
    if (!incompatibility(s, *o).empty() || !equalOnLive(s, *o))
      continue;
    best = o;
    bestShared = shared;
  }
  here = std::move(still);
  if (best && absorb(s, *best, bestShared))
    here.erase(std::remove_if(here.begin(), here.end(), [&](const auto &u) { return u.first == best->id; }),
               here.end());
  here.emplace_back(s.id, s.instructions);
}

bool IncrementalMerging::equalOnLive(const ExecutionState &a, const ExecutionState &b) {
  if (a.output != b.output || a.errorOutput != b.errorOutput || !(a.symbolicOutput == b.symbolicOutput))
    return false;
  const std::vector<const std::vector<bool> *> live = live_.of(a);
  std::unordered_set<uint64_t> deadSlots; // bases of stack slots no path reads before writing
  for (size_t f = 0; f < a.stack.size(); ++f) {
    const Frame &fa = a.stack[f], &fb = b.stack[f];
    for (size_t r = 0; r < fa.regs.size(); ++r)
      if ((r >= live[f]->size() || (*live[f])[r]) && !sameValue(fa.regs[r], fb.regs[r]))
        return false;
    std::unique_ptr<analysis::SlotLiveness> &slots = slots_[fa.function];
    if (!slots)
      slots = std::make_unique<analysis::SlotLiveness>(engine_.program, engine_.program.functions[fa.function]);
    const std::vector<bool> &slotLive = slots->liveBefore(fa.block, fa.pc);
    for (size_t k = 0; k < slots->slots().size(); ++k) {
      const uint32_t reg = slots->slots()[k];
      if (!slotLive[k] && reg < fa.regs.size() && fa.regs[reg].concrete() && sameValue(fa.regs[reg], fb.regs[reg]))
        deadSlots.insert(uint64_t(fa.regs[reg].bits));
    }
  }
  for (const auto &[address, entry] : a.memory.objects()) {
    const AddressSpace::Entry *o = b.memory.findBase(address);
    if (!o)
      return false;
    if (o->state == entry.state || deadSlots.count(address))
      continue;
    if (o->state->size() != entry.state->size())
      return false;
    for (uint64_t i = 0; i < entry.state->size(); ++i)
      if (entry.state->byteExpr(engine_.ctx, i) != o->state->byteExpr(engine_.ctx, i))
        return false;
  }
  return true;
}

// `keep` becomes the merge of the two (their paths' disjunction after the shared prefix; values
// merged where a dead register or slot differs); `gone` leaves every context it was in.
bool IncrementalMerging::absorb(ExecutionState &keep, ExecutionState &gone, size_t sharedConstraints) {
  MergeContext step(engine_.ctx);
  step.prefixConstraints = sharedConstraints;
  step.prefixDecisions = 0;
  while (step.prefixDecisions < keep.decisions.size() && step.prefixDecisions < gone.decisions.size() &&
         keep.decisions[step.prefixDecisions] == gone.decisions[step.prefixDecisions])
    ++step.prefixDecisions;
  step.treeExact = false;
  step.liveRegisters = live_.of(keep);
  ExecutionState *group[] = {&keep, &gone};
  MergeOutcome o = mergeStates(engine_.ctx, engine_.program, step, group, MergeEncodingKind::Disjunctive, false);
  if (!o.merged) {
    spdlog::debug("incremental merge refused at {}: {}", engine_.where(engine_.currentLoc), o.refusal);
    return false;
  }
  keep.decisions.push_back(2); // a merged path: its own identity
  for (MergeMembership &m : keep.merges)
    m.context->treeExact = false;
  for (MergeMembership &m : gone.merges) {
    m.context->treeExact = false;
    --m.context->live;
  }
  gone.merges.clear();
  engine_.dropState(gone);
  ++engine_.stats.merging.incrementalMerges;
  spdlog::debug("incremental merge at {} ({} conditions after the shared prefix of {})",
                engine_.where(engine_.currentLoc), keep.constraints.size() - sharedConstraints, sharedConstraints);
  return true;
}

} // namespace cairn::engine
