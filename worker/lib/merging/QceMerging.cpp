#include "merging/QceMerging.h"

#include "analysis/ControlFlow.h"
#include "executor/Engine.h"
#include "merging/StateMerging.h"
#include "search/MergingSearcher.h"

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_set>

namespace cairn::engine {

namespace {

template <class T> size_t commonPrefix(const T &a, const T &b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n])
    ++n;
  return n;
}

// Puts the constraints both paths have first, in one order, and returns how many there are:
// the merged path condition is then those and the disjunction of the rest (Cloud9's
// intersection), which stays small where the paths forked in different orders, as they do
// under dynamic merging, and not only where one is a prefix of the other.
size_t shareConstraints(ConstraintList &a, ConstraintList &b) {
  std::unordered_set<const Expr *> inB;
  for (const ExprRef &c : b)
    inB.insert(c.get());
  std::vector<ExprRef> common, onlyA;
  std::unordered_set<const Expr *> shared;
  for (const ExprRef &c : a)
    if (inB.count(c.get()) && shared.insert(c.get()).second)
      common.push_back(c);
    else
      onlyA.push_back(c);
  std::vector<ExprRef> onlyB;
  for (const ExprRef &c : b)
    if (!shared.count(c.get()))
      onlyB.push_back(c);
  const size_t n = common.size();
  if (commonPrefix(a.exprs(), common) == n && commonPrefix(b.exprs(), common) == n)
    return n; // already in that order
  std::vector<ExprRef> newA = common, newB = common;
  newA.insert(newA.end(), onlyA.begin(), onlyA.end());
  newB.insert(newB.end(), onlyB.begin(), onlyB.end());
  a.reorder(std::move(newA));
  b.reorder(std::move(newB));
  return n;
}

} // namespace

QceMerging::QceMerging(Engine &engine) : engine_(engine), distance_(engine.options.merging.dsmDistance) {
  const MergeOptions &o = engine.options.merging;
  if (o.strategy == MergeStrategy::None)
    return;
  analysis::QceOptions qce;
  qce.alpha = o.qceAlpha;
  qce.beta = o.qceBeta;
  qce.kappa = o.qceKappa;
  analysis::QueryCountEstimate estimate = analysis::estimateQueryCounts(engine.program, qce);
  engine.stats.merging.qceSeconds = estimate.seconds;
  engine.stats.merging.qceFunctions = estimate.functionsAnalysed;
  spdlog::info("query count estimate: {} functions in {:.3f} s", estimate.functionsAnalysed, estimate.seconds);
  if (spdlog::should_log(spdlog::level::debug))
    for (uint32_t f = 0; f < engine.program.functions.size(); ++f) {
      const analysis::FunctionCounts &c = estimate.functions[f];
      if (c.analysed && !engine.program.functions[f].isRuntime)
        spdlog::debug("query counts of {}: Q_t {:.3g} at entry, {} unrolled blocks, kappa {}",
                      engine.program.functions[f].name, c.atBlock.empty() ? 0.0 : c.atBlock[0].total, c.copies, c.kappa);
    }
  similarity_ = std::make_unique<QceSimilarity>(engine.program, std::move(estimate));
}

QceMerging::~QceMerging() = default;

std::unique_ptr<Searcher> QceMerging::wrap(std::unique_ptr<Searcher> driving) {
  if (!enabled())
    return driving;
  return std::make_unique<MergingSearcher>(std::move(driving), *this,
                                           engine_.options.merging.strategy == MergeStrategy::Dynamic);
}

void QceMerging::countUp(uint64_t hash) {
  if (++historyCount_[hash] == 1 && standing_.count(hash))
    matching_.insert(hash);
}

void QceMerging::countDown(uint64_t hash) {
  auto it = historyCount_.find(hash);
  if (it == historyCount_.end() || --it->second)
    return;
  historyCount_.erase(it);
  matching_.erase(hash);
}

void QceMerging::remember(Track &t, uint64_t hash) {
  t.history.push_back(hash);
  countUp(hash);
  while (t.history.size() > distance_) {
    countDown(t.history.front());
    t.history.pop_front();
  }
}

void QceMerging::standAt(Track &t, ExecutionState &s, uint64_t hash) {
  leaveEntry(t, s);
  t.current = hash;
  t.atEntry = true;
  std::vector<ExecutionState *> &here = standing_[hash];
  here.push_back(&s);
  if (here.size() == 1 && historyCount_.count(hash))
    matching_.insert(hash);
}

void QceMerging::leaveEntry(Track &t, const ExecutionState &s) {
  if (!t.atEntry)
    return;
  t.atEntry = false;
  auto it = standing_.find(t.current);
  if (it == standing_.end())
    return;
  std::erase(it->second, &s);
  if (it->second.empty()) {
    standing_.erase(it);
    matching_.erase(t.current);
  }
}

std::vector<ExecutionState *> QceMerging::forwardCandidates() const {
  std::vector<ExecutionState *> out;
  for (uint64_t h : matching_)
    for (ExecutionState *s : standing_.at(h))
      out.push_back(s);
  return out;
}

bool QceMerging::atInstruction(ExecutionState &s) {
  if (!enabled() || !s.merges.empty() || s.instructions < s.prefix.replayInstructions)
    return false;
  const Frame &f = s.stack.back();
  if (f.pc != engine_.program.functions[f.function].blocks[f.block].firstInstr)
    return false;
  Track &t = track(s);
  if (t.checkedAt == s.instructions)
    return false; // picked again where it stopped: it runs the block now
  t.checkedAt = s.instructions;
  std::vector<uint64_t> key = stackPosition(s);
  standAt(t, s, similarity_->hash(s, key));
  if (t.cooldown)
    --t.cooldown;
  if (distance_)
    remember(t, t.current);
  std::vector<ExecutionState *> &here = waiting_[key];
  for (ExecutionState *w : here)
    if (w != &s && mergeInto(*w, s, key)) {
      engine_.paused = true;
      return true;
    }
  here.push_back(&s);
  t.waitKey = std::move(key);
  t.waiting = true;
  engine_.paused = true;
  return true;
}

bool QceMerging::mergeInto(ExecutionState &waiting, ExecutionState &arriving, const std::vector<uint64_t> &position) {
  if (!similarity_->similar(waiting, arriving, position))
    return false;
  MergeStats &stats = engine_.stats.merging;
  Track &tw = track(waiting), &ta = track(arriving);
  auto refuse = [&](const std::string &why) {
    ++stats.refused;
    spdlog::debug("states not merged at {}: {}", engine_.where(engine_.currentLoc), why);
    ta.cooldown = distance_; // the same states would meet again on the way: not chased for a while
    return false;
  };
  // Checked before the constraints are put in a shared order, which a refusal would waste.
  if (std::string why = incompatibility(waiting, arriving); !why.empty())
    return refuse(why);
  MergeContext context(engine_.ctx);
  context.treeExact = false;
  context.prefixConstraints = shareConstraints(waiting.constraints, arriving.constraints);
  context.prefixDecisions = commonPrefix(waiting.decisions, arriving.decisions);
  ExecutionState *group[2] = {&waiting, &arriving};
  MergeOutcome o =
      mergeStates(engine_.ctx, engine_.program, context, group, MergeEncodingKind::Disjunctive, false);
  if (!o.merged)
    return refuse(o.refusal);
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("2 states merged at {} (multiplicity {}; hot: {})", engine_.where(engine_.currentLoc),
                  waiting.multiplicity + arriving.multiplicity, fmt::join(similarity_->describeHot(waiting), ", "));
  ++stats.merges;
  stats.statesMerged += 2;
  stats.constraintNodes += o.constraintNodes;
  stats.valueNodes += o.valueNodes;
  if (ta.forwarded || tw.forwarded)
    ++stats.fastForwardedMerged;
  tw.forwarded = false;
  waiting.decisions.push_back(2); // a merged path: its identity is apart from both
  standAt(tw, waiting, similarity_->hash(waiting, position));
  if (distance_)
    remember(tw, tw.current);
  engine_.dropState(arriving);
  return true;
}

void QceMerging::resumed(const ExecutionState &s) {
  auto it = tracks_.find(s.id);
  if (it == tracks_.end())
    return;
  Track &t = it->second;
  leaveEntry(t, s); // it runs on: where it stood is history now
  if (!t.waiting)
    return;
  auto w = waiting_.find(t.waitKey);
  if (w != waiting_.end()) {
    std::erase(w->second, &s);
    if (w->second.empty())
      waiting_.erase(w);
  }
  t.waiting = false;
}

void QceMerging::forked(const ExecutionState &parent, const ExecutionState &child) {
  auto it = tracks_.find(parent.id);
  if (it == tracks_.end())
    return;
  Track copy;
  copy.history = it->second.history;
  copy.cooldown = it->second.cooldown;
  for (uint64_t h : copy.history)
    countUp(h);
  tracks_[child.id] = std::move(copy);
}

void QceMerging::forget(const ExecutionState &s) {
  auto it = tracks_.find(s.id);
  if (it == tracks_.end())
    return;
  resumed(s);
  leaveEntry(it->second, s);
  for (uint64_t h : it->second.history)
    countDown(h);
  tracks_.erase(it);
}

bool QceMerging::matchesAnotherHistory(const ExecutionState &s) const {
  auto it = tracks_.find(s.id);
  if (it == tracks_.end() || !it->second.atEntry || it->second.cooldown)
    return false;
  const Track &t = it->second;
  auto c = historyCount_.find(t.current);
  if (c == historyCount_.end())
    return false;
  return c->second > uint32_t(std::count(t.history.begin(), t.history.end(), t.current));
}

void QceMerging::picked(const ExecutionState &s, bool fastForward) {
  Track &t = track(s);
  if (fastForward && !t.forwarded)
    ++engine_.stats.merging.fastForwarded;
  t.forwarded = fastForward;
}

const std::vector<uint32_t> &QceMerging::topologicalIndex(uint32_t function) {
  auto it = topo_.find(function);
  if (it != topo_.end())
    return it->second;
  const Function &fn = engine_.program.functions[function];
  std::vector<uint32_t> index(fn.blocks.size(), ~0u);
  if (!fn.blocks.empty()) {
    analysis::ControlFlow cfg(fn);
    const std::vector<uint32_t> &rpo = cfg.reversePostOrder();
    for (uint32_t i = 0; i < rpo.size(); ++i)
      index[rpo[i]] = i;
  }
  return topo_.emplace(function, std::move(index)).first->second;
}

// Frame by frame from the outermost: the block's place in its function's reverse post-order,
// then the instruction; a state still inside a call made where the other stands is earlier.
bool QceMerging::earlier(const ExecutionState &a, const ExecutionState &b) {
  const size_t n = std::min(a.stack.size(), b.stack.size());
  for (size_t i = 0; i < n; ++i) {
    const Frame &x = a.stack[i], &y = b.stack[i];
    if (x.function != y.function)
      return x.function < y.function;
    if (x.block != y.block) {
      const std::vector<uint32_t> &topo = topologicalIndex(x.function);
      return topo[x.block] < topo[y.block];
    }
    if (x.pc != y.pc)
      return x.pc < y.pc;
  }
  return a.stack.size() > b.stack.size();
}

} // namespace cairn::engine
