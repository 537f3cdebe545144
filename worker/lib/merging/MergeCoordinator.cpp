#include "merging/MergeCoordinator.h"

#include "cairn/expr/ExprUtil.h"
#include "executor/Engine.h"
#include "merging/Snapshots.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

namespace cairn::engine {

MergeContext &MergeCoordinator::open(ExecutionState &s, MergeContext::Kind kind) {
  auto c = std::make_shared<MergeContext>(engine_.ctx);
  c->kind = kind;
  c->function = s.top().function;
  c->frameDepth = s.stack.size();
  c->prefixConstraints = s.constraints.size();
  c->prefixDecisions = s.decisions.size();
  s.merges.push_back({c, 0, {}});
  ++engine_.stats.merging.contexts;
  return *c;
}

void MergeCoordinator::closeRegion(ExecutionState &s) {
  if (!s.merges.empty() && s.merges.back().context->kind == MergeContext::Kind::Region)
    return arrive(s);
  if (!warnedUnmatchedClose_)
    spdlog::warn("klee_close_merge at {} without a klee_open_merge before it: ignored", engine_.where(engine_.currentLoc));
  warnedUnmatchedClose_ = true;
}

// Merge modes: a fork inside a loop on a condition over a symbolic size makes the loop
// size-dependent, and the states it forks merge where they leave it. Loops with inner loops
// or calls (unless allowed) are left alone, as is a state already in a loop context.
void MergeCoordinator::beforeFork(ExecutionState &s, const ExprRef &cond) {
  if (!engine_.options.sizeModel.mergeLoops() || !s.sizeSymbols)
    return;
  const Frame &f = s.top();
  const Function &fn = engine_.program.functions[f.function];
  uint32_t loop = fn.blockLoop.empty() ? 0 : fn.blockLoop[f.block];
  if (!loop)
    return;
  const Loop &l = fn.loops[loop - 1];
  if (l.hasInnerLoops || (l.callsFunctions && !engine_.options.merging.loopsWithCalls))
    return;
  for (const MergeMembership &m : s.merges)
    if (m.context->kind == MergeContext::Kind::Loop)
      return;
  SymbolCollector symbols;
  symbols.add(cond.get());
  bool tainted = std::any_of(symbols.symbols().begin(), symbols.symbols().end(), [&](const SymbolDecl *d) {
    return std::find(s.sizeSymbols->begin(), s.sizeSymbols->end(), d) != s.sizeSymbols->end();
  });
  if (tainted)
    open(s, MergeContext::Kind::Loop).loop = loop - 1;
}

void MergeCoordinator::forked(ExecutionState &s, ExecutionState &other, const ExprRef &cond) {
  for (size_t i = 0; i < s.merges.size(); ++i) {
    MergeContext &c = *s.merges[i].context;
    ++c.live;
    auto [t, f] = c.tree.split(s.merges[i].node, cond);
    s.merges[i].node = t;
    other.merges[i].node = f;
  }
}

void MergeCoordinator::constrained(ExecutionState &s, const ExprRef &c) {
  for (MergeMembership &m : s.merges)
    m.node = m.context->tree.split(m.node, c).first;
}

// Under the quantified encoding a path's word must have a letter for every symbolic branch of
// an iteration, whether or not it forked: the last iteration of a loop bounded by an assumption
// (count < n when n <= 3 and count = 3) ends its word with ¬(count < n) like the paths that
// left earlier, not one iteration short of their pattern. The condition is implied: recording
// it changes no path, only the tree and the word.
void MergeCoordinator::decided(ExecutionState &s, const ExprRef &taken) {
  if (!s.merges.empty() && encodingOf(*s.merges.back().context) == MergeEncodingKind::Quantified)
    engine_.addConstraint(s, taken);
}

MergeEncodingKind MergeCoordinator::encodingOf(const MergeContext &c) const {
  const ExecutorOptions &options = engine_.options;
  if (options.merging.quantifiedEncoding)
    return MergeEncodingKind::Quantified;
  const bool tree = c.kind == MergeContext::Kind::Region ? options.merging.treeEncoding
                                                         : options.sizeModel.mode == SizeMode::MergeOpt;
  return tree ? MergeEncodingKind::ExecutionTree : MergeEncodingKind::Disjunctive;
}

bool MergeCoordinator::leftLoop(const ExecutionState &s) const {
  const MergeContext &c = *s.merges.back().context;
  if (c.kind != MergeContext::Kind::Loop || s.stack.size() != c.frameDepth)
    return false;
  const Frame &f = s.stack.back();
  return f.function == c.function && engine_.program.functions[f.function].blockLoop[f.block] != c.loop + 1;
}

// The state waits, out of the searcher, until every state of its context got here or ended.
void MergeCoordinator::arrive(ExecutionState &s) {
  const std::shared_ptr<MergeContext> &c = s.merges.back().context;
  engine_.searcher().remove(&s);
  engine_.paused = true;
  c->arrived.push_back(&s);
  if (--c->live == 0)
    pending_.push_back(c);
}

void MergeCoordinator::leave(ExecutionState &s) {
  forgetLineage(s);
  if (!s.merges.empty()) {
    const std::vector<ExecutionState *> &waiting = s.merges.back().context->arrived;
    if (std::find(waiting.begin(), waiting.end(), &s) == waiting.end())
      ++engine_.stats.merging.earlyTerminated;
  }
  release(s);
}

void MergeCoordinator::withdraw(ExecutionState &s) {
  release(s);
  engine_.dropState(s);
}

void MergeCoordinator::release(ExecutionState &s) {
  for (size_t i = s.merges.size(); i-- > 0;) {
    const std::shared_ptr<MergeContext> &c = s.merges[i].context;
    auto waiting = std::find(c->arrived.begin(), c->arrived.end(), &s);
    if (waiting != c->arrived.end()) {
      c->arrived.erase(waiting);
      continue;
    }
    if (--c->live == 0)
      pending_.push_back(c);
  }
  s.merges.clear();
}

void MergeCoordinator::completePending() {
  while (!pending_.empty()) {
    std::shared_ptr<MergeContext> c = std::move(pending_.back());
    pending_.pop_back();
    complete(*c);
  }
}

// The waiting states at the same instruction merge into one, which goes on; a group too large
// or incompatible goes on unmerged.
void MergeCoordinator::complete(MergeContext &c) {
  std::map<std::vector<uint32_t>, std::vector<ExecutionState *>> groups; // by position
  for (ExecutionState *s : c.arrived) {
    std::vector<uint32_t> position;
    for (const Frame &f : s->stack)
      position.insert(position.end(), {f.function, f.block, f.pc});
    groups[position].push_back(s);
  }
  c.arrived.clear();
  const ExecutorOptions &options = engine_.options;
  const MergeEncodingKind encoding = encodingOf(c);
  const bool byPatterns = encoding == MergeEncodingKind::Quantified;
  // The groups that are regular partitions, with their patterns.
  std::map<std::vector<uint32_t>, std::shared_ptr<const quantified::PatternGroup>> patterns;
  if (byPatterns) { // each regular partition merges on its own
    std::map<std::vector<uint32_t>, std::vector<ExecutionState *>> parts;
    uint32_t part = 0;
    for (auto &[position, group] : groups)
      for (const QuantifiedPart &p : quantifiedPartition(c, group)) {
        std::vector<uint32_t> key = position;
        key.push_back(part++);
        for (size_t m : p.members)
          parts[key].push_back(group[m]);
        if (p.pattern) {
          patterns.emplace(key, p.pattern);
          ++engine_.stats.merging.patterns;
        }
      }
    groups = std::move(parts);
  }
  MergeStats &stats = engine_.stats.merging;
  uint8_t exit = 0;
  for (auto &[position, group] : groups) {
    if (group.size() > 1 && group.size() <= options.merging.maxStates) {
      auto pattern = patterns.find(position);
      const EncodingChoice choice(encoding, pattern == patterns.end() ? nullptr : pattern->second.get());
      MergeOutcome o = mergeStates(engine_.ctx, engine_.program, c, group, choice, true, options.merging.validate);
      if (o.merged && o.quantified && options.merging.validate)
        validate(o);
      if (o.merged) {
        ++stats.merges;
        stats.statesMerged += group.size();
        stats.constraintNodes += o.constraintNodes;
        stats.valueNodes += o.valueNodes;
        if (o.quantified)
          ++stats.quantifiedMerges;
        else if (pattern != patterns.end())
          ++stats.quantifiedFallbacks;
        for (size_t i = 1; i < group.size(); ++i)
          discardMerged(*group[i]);
        group.resize(1);
        // Merged paths of one context differ by their exit: keep their identities apart.
        group[0]->decisions.push_back(uint8_t(2 + exit));
      } else {
        ++stats.refused;
        spdlog::debug("{} states not merged at {}: {}", group.size(), engine_.where(engine_.currentLoc), o.refusal);
      }
    } else if (group.size() > 1) {
      ++stats.refused;
    }
    exit = uint8_t(std::min(exit + 1, 253));
    for (ExecutionState *s : group) {
      s->merges.pop_back();
      engine_.searcher().add(s);
    }
  }
}

// Every obligation of the merge must be unsatisfiable; one the solver satisfies (or cannot
// decide) is a merged state that is not exactly its paths.
void MergeCoordinator::validate(const MergeOutcome &o) {
  MergeStats &stats = engine_.stats.merging;
  ++stats.mergesValidated;
  for (const ExprRef &obligation : o.obligations) {
    SolverResponse r = engine_.solver->check(Query({}, obligation), false);
    if (r.result == SatResult::Unsat)
      continue;
    ++stats.mismatches;
    spdlog::error("merge validation at {}: the quantified merge is not exactly its paths ({})",
                  engine_.where(engine_.currentLoc), r.result == SatResult::Sat ? "a counterexample exists" : r.reason);
    if (spdlog::should_log(spdlog::level::debug))
      spdlog::debug("merge validation: satisfiable {}", describe(obligation.get()));
    return;
  }
}

// A state merged into another: no path ends; enclosing contexts now count one state less
// and their trees no longer match their states.
void MergeCoordinator::discardMerged(ExecutionState &s) {
  s.merges.pop_back();
  for (MergeMembership &m : s.merges) {
    m.context->treeExact = false;
    --m.context->live;
  }
  s.merges.clear();
  engine_.dropState(s);
}

} // namespace cairn::engine
