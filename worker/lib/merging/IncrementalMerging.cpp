#include "merging/IncrementalMerging.h"

#include "analysis/SlotLiveness.h"
#include "executor/Engine.h"
#include "merging/StateMerging.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_set>

namespace cairn::engine {

namespace {

uint64_t positionKey(const Frame &f) { return (uint64_t(f.function) << 44) ^ (uint64_t(f.block) << 22) ^ f.pc; }

bool inContexts(const MergeContext::Snapshot &snap, const ExecutionState &s) {
  if (snap.contexts.size() != s.merges.size())
    return false;
  for (size_t i = 0; i < s.merges.size(); ++i)
    if (snap.contexts[i] != s.merges[i].context.get())
      return false;
  return true;
}

bool descends(const MergeMembership &m, uint32_t id) {
  return std::find(m.lineage.begin(), m.lineage.end(), id) != m.lineage.end();
}

} // namespace

IncrementalMerging::IncrementalMerging(Engine &engine) : engine_(engine), live_(engine.program) {}
IncrementalMerging::~IncrementalMerging() = default;

void IncrementalMerging::branched(ExecutionState &taken, ExecutionState &other) {
  if (!engine_.options.merging.incremental)
    return;
  const uint64_t site = engine_.currentInstr;
  arrive(taken, site, true);
  arrive(other, site, false);
  // Where merging with a snapshot discarded work, the side that ran on should have waited:
  // from then on the other side of that fork runs first. Elsewhere the searcher's own order
  // stands (a changed order costs coverage where nothing merges).
  auto first = firstSide_.find(site);
  if (first != firstSide_.end() && !engine_.isTerminated(&taken) && !engine_.isTerminated(&other))
    first->second ? engine_.searcher().pickBefore(&taken, &other) : engine_.searcher().pickBefore(&other, &taken);
}

void IncrementalMerging::arrive(ExecutionState &s, uint64_t site, bool held) {
  // A side leaving its loop waits at the exit: the loop's merge takes it there.
  if (s.merges.empty() || engine_.isTerminated(&s) || engine_.merging.leftLoop(s))
    return;
  MergeContext &c = *s.merges.back().context;
  const uint64_t position = positionKey(s.top());
  std::vector<uint32_t> &here = c.snapshotsAt[position];
  std::erase_if(here, [&](uint32_t id) { return !c.snapshots.count(id); });
  uint32_t best = 0;
  size_t bestShared = 0, bestLength = 0;
  for (uint32_t id : here) {
    const MergeContext::Snapshot &snap = c.snapshots.at(id);
    const ExecutionState &o = *snap.state;
    if (positionKey(o.stack.back()) != position || !inContexts(snap, s) || descends(s.merges.back(), id))
      continue;
    // The shared prefix of the two paths: the lowest common ancestor.
    size_t shared = 0;
    while (shared < s.constraints.size() && shared < o.constraints.size() &&
           s.constraints[shared] == o.constraints[shared])
      ++shared;
    const size_t mine = s.constraints.size() - shared, added = o.constraints.size() - shared;
    if (shared < c.prefixConstraints || !mine || !added || (mine != 1 && added != 1))
      continue; // one path a prefix of the other, or the ancestor is the parent of neither
    if (best && o.constraints.size() >= bestLength)
      continue; // the highest candidate wins
    if (!incompatibilityOutsideContexts(s, o).empty() || !equalOnLive(s, o))
      continue;
    best = id;
    bestShared = shared;
    bestLength = o.constraints.size();
  }
  if (best)
    absorb(s, c, best, bestShared);
  takeSnapshot(c, s, position, site, held);
}

void IncrementalMerging::takeSnapshot(MergeContext &c, ExecutionState &s, uint64_t position, uint64_t site,
                                      bool held) {
  const uint32_t id = c.nextSnapshot++;
  s.merges.back().lineage.push_back(id);
  MergeContext::Snapshot snap{std::make_unique<ExecutionState>(s), {}, site, held};
  for (MergeMembership &m : snap.state->merges) {
    snap.contexts.push_back(m.context.get());
    m.context.reset(); // the context owns the snapshot: no reference back
  }
  c.snapshots.emplace(id, std::move(snap));
  c.snapshotsAt[position].push_back(id);
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
// merged where a dead register or slot differs); the snapshot and what descends from it go.
void IncrementalMerging::absorb(ExecutionState &keep, MergeContext &c, uint32_t id, size_t sharedConstraints) {
  auto node = c.snapshots.extract(id); // out of the map while the merge forgets snapshots
  ExecutionState &gone = *node.mapped().state;
  MergeContext step(engine_.ctx);
  step.prefixConstraints = sharedConstraints;
  step.prefixDecisions = 0;
  while (step.prefixDecisions < keep.decisions.size() && step.prefixDecisions < gone.decisions.size() &&
         keep.decisions[step.prefixDecisions] == gone.decisions[step.prefixDecisions])
    ++step.prefixDecisions;
  step.treeExact = false;
  step.liveRegisters = live_.of(keep);
  for (size_t i = 0; i < keep.merges.size(); ++i)
    gone.merges[i].context = keep.merges[i].context; // the same contexts (inContexts)
  ExecutionState *group[] = {&keep, &gone};
  MergeOutcome o = mergeStates(engine_.ctx, engine_.program, step, group, MergeEncodingKind::Disjunctive, false);
  for (MergeMembership &m : gone.merges)
    m.context.reset();
  if (!o.merged) {
    spdlog::debug("incremental merge refused at {}: {}", engine_.where(engine_.currentLoc), o.refusal);
    c.snapshots.insert(std::move(node));
    return;
  }
  keep.decisions.push_back(2); // a merged path: its own identity
  for (MergeMembership &m : keep.merges)
    m.context->treeExact = false;
  uint64_t ranOn = 0;
  const size_t discarded = discardSubtree(c, id, gone, ranOn);
  MergeStats &stats = engine_.stats.merging;
  ++stats.incrementalMerges;
  if (ranOn) {
    firstSide_[node.mapped().site] = !node.mapped().held;
    ++stats.snapshotMerges;
    stats.statesDiscarded += discarded;
  }
  spdlog::debug("incremental merge at {} ({} conditions after the shared prefix of {}{})",
                engine_.where(engine_.currentLoc), keep.constraints.size() - sharedConstraints, sharedConstraints,
                ranOn ? fmt::format("; {} states that ran on discarded", discarded) : "");
}

size_t IncrementalMerging::discardSubtree(MergeContext &c, uint32_t id, const ExecutionState &snapshot,
                                          uint64_t &ranOn) {
  std::vector<ExecutionState *> under;
  engine_.forEachLiveState([&](ExecutionState &st) {
    for (const MergeMembership &m : st.merges)
      if (m.context.get() == &c && descends(m, id))
        under.push_back(&st);
  });
  for (ExecutionState *st : under) {
    if (st->id != snapshot.id || st->instructions != snapshot.instructions)
      ++ranOn;
    engine_.merging.withdraw(*st);
  }
  std::erase_if(c.snapshots, [&](const auto &entry) { return descends(entry.second.state->merges.back(), id); });
  return under.size();
}

} // namespace cairn::engine
