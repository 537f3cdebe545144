#include "merging/QceMerging.h"

#include "analysis/AssumeReach.h"
#include "analysis/ControlFlow.h"
#include "executor/Engine.h"
#include "merging/EndAhead.h"
#include "merging/StateMerging.h"
#include "search/MergingSearcher.h"

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>

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
// under dynamic merging, and not only where one is a prefix of the other. The common prefix is
// shared as it stands; only the constraints after it are compared (a few against a path's
// tens: a merge at a return used to hash every constraint of both paths).
size_t shareConstraints(ConstraintList &a, ConstraintList &b) {
  const size_t prefix = commonPrefix(a.exprs(), b.exprs());
  if (prefix == a.size() || prefix == b.size())
    return prefix;
  std::vector<const Expr *> restOfB;
  restOfB.reserve(b.size() - prefix);
  for (size_t i = prefix; i < b.size(); ++i)
    restOfB.push_back(b[i].get());
  std::sort(restOfB.begin(), restOfB.end());
  std::vector<const Expr *> shared; // the constraints after the prefix that both have
  std::vector<ExprRef> onlyA;
  for (size_t i = prefix; i < a.size(); ++i) {
    const Expr *c = a[i].get();
    if (std::binary_search(restOfB.begin(), restOfB.end(), c) &&
        std::find(shared.begin(), shared.end(), c) == shared.end())
      shared.push_back(c);
    else
      onlyA.push_back(a[i]);
  }
  if (shared.empty())
    return prefix;
  std::vector<ExprRef> newA(a.exprs().begin(), a.exprs().begin() + prefix);
  for (const Expr *c : shared)
    newA.push_back(ExprRef(c));
  std::vector<ExprRef> newB = newA;
  newA.insert(newA.end(), onlyA.begin(), onlyA.end());
  std::sort(shared.begin(), shared.end());
  for (size_t i = prefix; i < b.size(); ++i)
    if (!std::binary_search(shared.begin(), shared.end(), b[i].get()))
      newB.push_back(b[i]);
  const size_t n = prefix + shared.size();
  if (newA != a.exprs()) // a reorder drops the list's partition, made again when asked
    a.reorder(std::move(newA));
  if (newB != b.exprs())
    b.reorder(std::move(newB));
  return n;
}

// Each hash of a history once: a history holds a hash however often it repeats.
template <class Each> void forEachDistinct(const std::vector<uint64_t> &history, Each each) {
  for (auto it = history.begin(); it != history.end(); ++it)
    if (std::find(history.begin(), it, *it) == it)
      each(*it);
}

} // namespace

QceMerging::QceMerging(Engine &engine)
    : engine_(engine), distance_(engine.options.merging.strategy == MergeStrategy::Dynamic
                                     ? engine.options.merging.dsmDistance
                                     : 0),
      live_(engine.program), population_(engine.program) {
  const MergeOptions &o = engine.options.merging;
  if (o.strategy == MergeStrategy::None)
    return;
  analysis::QceOptions qce;
  qce.alpha = o.qceAlpha;
  qce.beta = o.qceBeta;
  qce.kappa = o.qceKappa;
  qce.zeta = o.qceZeta;
  qce.addressesHot = o.qceAddressesHot;
  qce.floatsHot = o.qceFloatsHot;
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
  assumes_ = std::make_unique<analysis::AssumeReach>(engine.program);
}

QceMerging::~QceMerging() = default;

std::unique_ptr<Searcher> QceMerging::wrap(std::unique_ptr<Searcher> driving) {
  if (!enabled())
    return driving;
  auto searcher = std::make_unique<MergingSearcher>(std::move(driving), *this,
                                                    engine_.options.merging.strategy == MergeStrategy::Dynamic);
  searcher_ = searcher.get();
  return searcher;
}

QceMerging::Track *QceMerging::findTrack(const ExecutionState &s) {
  if (s.mergeTrack >= tracks_.size())
    return nullptr;
  Track &t = tracks_[s.mergeTrack];
  return t.live && t.owner == s.id ? &t : nullptr;
}

QceMerging::Track &QceMerging::track(ExecutionState &s) {
  if (Track *t = findTrack(s))
    return *t;
  if (freeTracks_.empty()) {
    freeTracks_.push_back(uint32_t(tracks_.size()));
    tracks_.emplace_back();
  }
  s.mergeTrack = freeTracks_.back();
  freeTracks_.pop_back();
  Track &t = tracks_[s.mergeTrack];
  std::vector<uint64_t> history = std::move(t.history);
  t = Track{};
  history.clear(); // a reused slot keeps its vector's room
  t.history = std::move(history);
  t.owner = s.id;
  t.live = true;
  return t;
}

// A state in its cooldown is not chased: it stays out of F while it stands (its cooldown only
// counts down as it moves), so that a pick does not walk past every refused state in F (echo,
// whose states printing different amounts meet and are refused everywhere: a fifth of the run
// went to that walk).
void QceMerging::enterForward(Track &t, ExecutionState &s) {
  if (t.inForward || t.cooldown)
    return;
  t.inForward = true;
  forward_.insert(s, topologicalKey(s));
}

void QceMerging::leaveForward(Track &t, const ExecutionState &s) {
  if (!t.inForward)
    return;
  t.inForward = false;
  forward_.erase(s);
}

// A hash held by two states' histories makes every state standing at it a candidate: it
// holds the hash itself (its last entry), so another state stood there within distance_.
// One map for both counts: every block entry changes each, and two maps were two lookups.
bool QceMerging::heldByTwo(uint64_t hash) const {
  auto h = entries_.find(hash);
  return h != entries_.end() && h->second.holders >= 2;
}

void QceMerging::hold(uint64_t hash) {
  HashEntry &e = entries_[hash];
  if (++e.holders == 2)
    for (ExecutionState *s : e.standing)
      if (Track *t = findTrack(*s))
        enterForward(*t, *s);
}

void QceMerging::release(uint64_t hash) {
  auto it = entries_.find(hash);
  if (it == entries_.end() || it->second.holders == 0)
    return;
  HashEntry &e = it->second;
  if (e.holders-- == 2)
    for (ExecutionState *s : e.standing)
      if (Track *t = findTrack(*s))
        leaveForward(*t, *s);
  if (e.holders == 0 && e.standing.empty())
    entries_.erase(it);
}

void QceMerging::remember(Track &t, uint64_t hash) {
  if (std::find(t.history.begin(), t.history.end(), hash) == t.history.end())
    hold(hash);
  t.history.push_back(hash);
  while (t.history.size() > distance_) {
    const uint64_t old = t.history.front();
    t.history.erase(t.history.begin());
    if (std::find(t.history.begin(), t.history.end(), old) == t.history.end())
      release(old);
  }
}

void QceMerging::standAt(Track &t, ExecutionState &s, uint64_t hash) {
  leaveEntry(t, s);
  t.current = hash;
  t.atEntry = true;
  if (distance_ == 0)
    return; // static merging keeps no history
  HashEntry &e = entries_[hash];
  e.standing.push_back(&s);
  if (e.holders >= 2)
    enterForward(t, s);
}

void QceMerging::leaveEntry(Track &t, const ExecutionState &s) {
  if (!t.atEntry)
    return;
  t.atEntry = false;
  leaveForward(t, s);
  auto it = entries_.find(t.current);
  if (it == entries_.end())
    return;
  auto &states = it->second.standing;
  states.erase(std::find(states.begin(), states.end(), &s));
  if (states.empty() && it->second.holders == 0)
    entries_.erase(it);
}

ExecutionState *QceMerging::firstToForward() {
  return forward_.first();
}

bool QceMerging::atInstruction(ExecutionState &s) {
  if (!enabled() || !arrive(s))
    return false;
  engine_.paused = true;
  return true;
}

void QceMerging::settleForked() {
  std::vector<uint64_t> ids;
  ids.swap(forkedSinceSettled_);
  for (uint64_t id : ids)
    if (ExecutionState *s = engine_.liveState(id))
      arrive(*s);
}

bool QceMerging::arrive(ExecutionState &s) {
  if (!s.merges.empty() || s.prefix.excluded || s.instructions < s.prefix.replayInstructions || s.stack.empty())
    return false;
  const Frame &f = s.stack.back();
  if (f.pc != engine_.program.functions[f.function].blocks[f.block].firstInstr)
    return false;
  Track &t = track(s);
  if (t.checkedAt == s.instructions)
    return false; // picked again where it stopped: it runs the block now
  t.checkedAt = s.instructions;
  const uint64_t leftLoop = distance_ && engine_.options.merging.holdLoopExits ? population_.move(t.place, s) : 0;
  const PositionId position = similarity_->position(s);
  auto it = waiting_.find(position);
  if (it == waiting_.end() && !distance_ && searcher_ && searcher_->pickedAgain(s, topologicalKey(s)))
    return false; // static merging: no state here to merge with, and it would be picked again
  const uint64_t hash = similarity_->hash(s, position, t.symbolicHot);
  if (t.cooldown)
    --t.cooldown;
  if (t.nearFork)
    --t.nearFork;
  if (distance_)
    remember(t, hash);
  const bool metOthers = it != waiting_.end();
  if (metOthers) {
    WaitingAt &here = it->second;
    auto tryAll = [&](const auto &states) {
      for (ExecutionState *w : states)
        if (w != &s && mergeInto(*w, s, position))
          return true;
      return false;
    };
    if (t.symbolicHot) {
      // By the hot values' hashes, not in the map's order, which its hash seed changes from
      // process to process: the same run must merge the same states each time.
      absl::InlinedVector<uint64_t, 8> hashes;
      for (const auto &entry : here.concrete)
        hashes.push_back(entry.first);
      std::sort(hashes.begin(), hashes.end());
      for (uint64_t h : hashes)
        if (tryAll(here.concrete.find(h)->second))
          return true;
    } else if (auto same = here.concrete.find(hash); same != here.concrete.end() && tryAll(same->second)) {
      return true;
    }
    if (tryAll(here.partlySymbolic))
      return true;
  }
  const bool gathering = gathers(s, position);
  if (leftLoop && metOthers)
    stopHolding(leftLoop, s);
  const bool holding = !gathering && leftLoop && searcher_ && waitsForLoop(leftLoop);
  if (!gathering && !holding && runsOn(t, hash)) {
    leaveEntry(t, s);
    return false;
  }
  standAt(t, s, hash);
  t.waitingAt = position;
  wait(t, s);
  ++engine_.stats.merging.stops;
  if (gathering)
    searcher_->gather(s);
  else if (holding)
    holdAtExit(t, s, leftLoop);
  return true;
}

// Whether a state that has just left `loop` is to wait at the exit for the states inside: there
// are some, and no state leaving this loop instance has yet found states at its exit and merged
// with none of them (echo's printing loop: a state inside prints more than one that left, and
// never merges with it).
bool QceMerging::waitsForLoop(uint64_t loop) const {
  return population_.inside(loop) > 0 && !noHolds_.contains(loop);
}

// Picks, not time: a run is the same run each time. Long enough for the states of a loop over
// a few symbolic characters to reach its exit; a loop that never empties (one over a long
// symbolic input) holds what follows it back for no more than this.
constexpr uint64_t kHoldPicks = 512;

void QceMerging::holdAtExit(Track &t, ExecutionState &s, uint64_t loop) {
  t.heldAt = loop;
  const Held held{&s, s.mergeTrack, s.id, loop};
  held_[loop].push_back(held);
  holdsEnding_.emplace_back(picks_ + kHoldPicks, held);
  ++engine_.stats.merging.exitHolds;
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("state {} waits at {}, the exit of a loop {} states are still inside", s.id, where(s),
                  population_.inside(loop));
  searcher_->gather(s);
}

// A state leaving the loop found states at the exit and merged with none of them: refused (echo
// over 4 arguments: held together they went on and were refused at every block after it, 10-50 %
// more instructions), or not similar, a hot value different (a scan whose exit index is
// branched on: each state leaving at another index waited out the states inside, to merge
// nowhere; on coreutils' tr, strcmp's and strncmp's loops over symbolic arguments held states
// 507 times in a minute, and the run covered 45 of tr.c's lines against 400 without waits).
// The states of this loop instance do not wait at its exit any more.
void QceMerging::stopHolding(uint64_t loop, const ExecutionState &s) {
  if (!noHolds_.insert(loop).second)
    return;
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("states leaving the loop before {} no longer wait there: one merged with none waiting", where(s));
  releaseAllAt(loop);
}

std::string QceMerging::where(const ExecutionState &s) const {
  const Frame &f = s.stack.back();
  const Function &fn = engine_.program.functions[f.function];
  return engine_.where(fn.instrs[f.pc].loc) + " (block " + std::to_string(f.block) + " of " + fn.name + ")";
}

void QceMerging::releaseAllAt(uint64_t loop) {
  auto it = held_.find(loop);
  if (it == held_.end())
    return;
  for (const Held &h : it->second)
    releaseHold(h);
  held_.erase(it);
}

void QceMerging::releaseHold(const Held &h) {
  // By its slot, not by id: the engine finds a state by id in an ordered map, at every hold's end.
  Track &t = tracks_[h.slot];
  if (!t.live || t.owner != h.id || t.heldAt != h.loop)
    return; // gone, or picked meanwhile (and maybe held at another exit since)
  t.heldAt = 0;
  searcher_->release(*h.state);
}

void QceMerging::releaseHeld() {
  ++picks_;
  for (uint64_t loop : population_.takeEmptied())
    if (population_.inside(loop) == 0)
      releaseAllAt(loop);
  while (!holdsEnding_.empty() && holdsEnding_.front().first <= picks_) {
    releaseHold(holdsEnding_.front().second);
    holdsEnding_.pop_front();
  }
}

// DSM: a state in main's own frame, at a block that only returns (no call in it) with no query
// ahead, only ends; the states behind it cannot catch up with it by their hashes: they differ
// in hot values it no longer has (a tokenizer's state, the last character's class). Without a
// wait the first to get there ends before the others come, and every path ends apart
// (state-machine N=9: 31 tests, each a solver query for a merged state's inputs, against
// static merging's one); so it waits out of the driving searcher's reach until no other state
// is left to it. Only the return itself: a state with calls or blocks still ahead has lines
// to cover, and the driving searcher's picks among them are the run's coverage.
bool QceMerging::gathers(const ExecutionState &s, PositionId position) const {
  if (!distance_ || !searcher_ || s.stack.size() != 1 || similarity_->queriesAhead(position) > 0)
    return false;
  const Frame &f = s.stack.back();
  const Function &fn = engine_.program.functions[f.function];
  const uint32_t end = fn.blockEnd(f.block);
  for (uint32_t i = f.pc; i < end; ++i)
    if (fn.instrs[i].op == Opcode::Call)
      return false;
  return end > f.pc && fn.instrs[end - 1].op == Opcode::Ret;
}

// DSM: a state far from a fork, picked by the driving searcher, with no state to catch up
// anywhere and none behind it here, would be picked again at once: it runs on without stopping
// (its history still records the entry, so a state behind it can be found and caught up). So
// the driving searcher sees the picks it would see without merging: a burst searcher's burst
// counts picks, and one pick per block entry made its bursts an eighth as long.
bool QceMerging::runsOn(const Track &t, uint64_t hash) {
  if (!distance_ || t.nearFork || t.forwarded)
    return false;
  return !heldByTwo(hash) && firstToForward() == nullptr;
}

void QceMerging::wait(Track &t, ExecutionState &s) {
  WaitingAt &here = waiting_[t.waitingAt];
  if (t.symbolicHot)
    here.partlySymbolic.push_back(&s);
  else
    here.concrete[t.current].push_back(&s);
  t.waiting = true;
}

void QceMerging::stopWaiting(Track &t, const ExecutionState &s) {
  if (!t.waiting)
    return;
  t.waiting = false;
  auto w = waiting_.find(t.waitingAt);
  if (w == waiting_.end())
    return;
  WaitingAt &here = w->second;
  if (t.symbolicHot) {
    std::erase(here.partlySymbolic, &s);
  } else if (auto bucket = here.concrete.find(t.current); bucket != here.concrete.end()) {
    auto &states = bucket->second;
    states.erase(std::remove(states.begin(), states.end(), &s), states.end());
    if (bucket->second.empty())
      here.concrete.erase(bucket);
  }
  if (here.concrete.empty() && here.partlySymbolic.empty())
    waiting_.erase(w);
}

bool QceMerging::mergeInto(ExecutionState &waiting, ExecutionState &arriving, PositionId position) {
  if (!similarity_->similar(waiting, arriving, position))
    return false;
  MergeStats &stats = engine_.stats.merging;
  Track &tw = track(waiting), &ta = track(arriving);
  auto refuse = [&](const std::string &why) {
    ++stats.refused;
    if (spdlog::should_log(spdlog::level::debug)) // where() builds a string: not for every refusal
      spdlog::debug("states not merged at {}: {}", where(waiting), why);
    ta.cooldown = distance_; // the same states would meet again on the way: not chased for a while
    return false;
  };
  // Checked before the constraints are put in a shared order, which a refusal would waste.
  if (std::string why = incompatibility(waiting, arriving); !why.empty())
    return refuse(why);
  if (mayAssume(waiting))
    return refuse("a klee_assume may follow, and whether it contradicts a path is per path");
  if (similarity_->queriesAhead(position) == 0 &&
      onlyEndAhead(engine_.program.functions[waiting.stack.back().function], waiting, arriving)) {
    ExecutionState *group[2] = {&waiting, &arriving};
    mergeEnding(group);
  } else if (std::string why = mergeWhole(waiting, arriving, position); !why.empty()) {
    return refuse(why);
  }
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("2 states merged at {} (multiplicity {}; hot: {})", where(waiting),
                  waiting.multiplicity, fmt::join(similarity_->describeHot(waiting), ", "));
  ++stats.merges;
  stats.statesMerged += 2;
  if (ta.forwarded || tw.forwarded)
    ++stats.fastForwardedMerged;
  tw.forwarded = false;
  waiting.decisions.push_back(2); // a merged path: its identity is apart from both
  // Its hot values may have become symbolic: it waits on under its new hash. This changes the
  // list atInstruction is searching, which stops at this merge.
  stopWaiting(tw, waiting);
  standAt(tw, waiting, similarity_->hash(waiting, position, tw.symbolicHot));
  if (distance_)
    remember(tw, tw.current);
  wait(tw, waiting);
  engine_.dropState(arriving);
  return true;
}

std::string QceMerging::mergeWhole(ExecutionState &waiting, ExecutionState &arriving, PositionId position) {
  MergeContext context(engine_.ctx);
  context.treeExact = false;
  // Folding simplifies the queries to come; where the estimate expects none, the merged
  // condition is solved for the test alone, from one of its paths (the disjunct-split layer)
  // whatever its form.
  context.foldPaths = distance_ > 0 && similarity_->queriesAhead(position) > 0;
  context.groupCompatible = true;
  context.liveRegisters = live_.of(waiting);
  context.prefixConstraints = shareConstraints(waiting.constraints, arriving.constraints);
  context.prefixDecisions = commonPrefix(waiting.decisions, arriving.decisions);
  ExecutionState *group[2] = {&waiting, &arriving};
  MergeOutcome o =
      mergeStates(engine_.ctx, engine_.program, context, group, MergeEncodingKind::Disjunctive, false);
  if (!o.merged)
    return o.refusal;
  engine_.stats.merging.constraintNodes += o.constraintNodes;
  engine_.stats.merging.valueNodes += o.valueNodes;
  return {};
}

void QceMerging::resumed(const ExecutionState &s) {
  Track *found = findTrack(s);
  if (!found)
    return;
  Track &t = *found;
  t.heldAt = 0;
  stopWaiting(t, s); // before leaving the entry: its bucket is the hash where it stands
  leaveEntry(t, s);  // it runs on: where it stood is history now
}

void QceMerging::forked(const ExecutionState &parent, ExecutionState &child) {
  forkedSinceSettled_.push_back(parent.id);
  forkedSinceSettled_.push_back(child.id);
  Track *from = findTrack(parent);
  if (!from)
    return;
  from->nearFork = distance_;
  Track &copy = track(child); // the deque keeps `from` where it is
  copy.history = from->history;
  copy.cooldown = from->cooldown;
  copy.nearFork = distance_;
  copy.place = from->place;
  population_.copy(copy.place);
  forEachDistinct(copy.history, [&](uint64_t h) { hold(h); });
}

void QceMerging::forget(const ExecutionState &s) {
  Track *t = findTrack(s);
  if (!t)
    return;
  resumed(s);
  forEachDistinct(t->history, [&](uint64_t h) { release(h); });
  population_.remove(t->place);
  t->live = false;
  freeTracks_.push_back(s.mergeTrack);
}

void QceMerging::picked(ExecutionState &s, bool fastForward) {
  Track &t = track(s);
  if (fastForward && !t.forwarded)
    ++engine_.stats.merging.fastForwarded;
  t.forwarded = fastForward;
}

bool QceMerging::picksAnewAfter(const ExecutionState &s) {
  const Track *t = findTrack(s);
  return !t || t->nearFork > 0;
}

const std::vector<uint32_t> &QceMerging::topologicalIndex(uint32_t function) {
  if (topo_.size() <= function)
    topo_.resize(engine_.program.functions.size());
  std::vector<uint32_t> &index = topo_[function];
  const Function &fn = engine_.program.functions[function];
  if (index.size() == fn.blocks.size())
    return index;
  index.assign(fn.blocks.size(), ~0u);
  analysis::ControlFlow cfg(fn);
  const std::vector<uint32_t> &order = cfg.loopsFirstOrder();
  for (uint32_t i = 0; i < order.size(); ++i)
    index[order[i]] = i;
  return index;
}

bool QceMerging::mayAssume(const ExecutionState &s) {
  for (const Frame &f : s.stack)
    if (assumes_->mayAssumeFrom(f.function, f.block, f.pc))
      return true;
  return false;
}

std::vector<uint64_t> QceMerging::topologicalKey(const ExecutionState &s) {
  std::vector<uint64_t> key;
  key.reserve(2 * s.stack.size() + 1);
  for (const Frame &f : s.stack) {
    key.push_back((uint64_t(f.function) << 32) | topologicalIndex(f.function)[f.block]);
    key.push_back(f.pc);
  }
  key.push_back(~uint64_t(0)); // above any frame's entry: the deeper stack comes first
  return key;
}

} // namespace cairn::engine
