#include "cairn/engine/Executor.h"

#include "AddressSubstitution.h"
#include "ArithmeticOverflow.h"
#include "HostFloat.h"
#include "Relocation.h"
#include "StateMerging.h"
#include "cairn/engine/ExecutionState.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/expr/Fold.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <unordered_set>

namespace cairn::engine {

namespace {

constexpr uint64_t kHeapBase = 0x2000'0000;
constexpr uint64_t kAllocGap = 16;   // between objects, so small overflows land nowhere
constexpr uint64_t kNullPage = 4096; // accesses below this are null dereferences
constexpr uint64_t kMaxAllocation = uint64_t(1) << 32;
// Segments (relocatable model) get addresses of their own, far above any path's heap, so a
// segment reused by another state cannot overlap that state's objects. Each state places its
// segments one after the other from here, as it does its objects, so that a path prefix
// replayed in another engine finds them at the same addresses.
constexpr uint64_t kSegmentBase = 0x10'0000'0000;
// Objects one symbolic pointer may resolve to before the rest of its values end the path.
constexpr unsigned kMaxTargets = 1024;

using Clock = std::chrono::steady_clock;

// What a prefix records at a fork past --max-forks: the true side followed, no other side.
constexpr uint64_t kFollowedWithoutFork = 2;

// Why a path ended, when it did not end normally.
struct Termination {
  std::optional<ErrorReport> error;
  bool partial = false;
  bool writeTest = true;
  std::string reason;
};

} // namespace

class Executor::Impl {
public:
  Impl(const Program &program, ExecutorOptions options, ResultSink &sink)
      : program_(program), options_(std::move(options)), sink_(sink),
        homeSubstitution_(ctx_, [this](const SymbolDecl *b) { return homeAddress(b); }) {
    solver_ = createSolverChain(options_.solver);
    locationSeen_.assign(program_.locations.size(), false);
    searcher_ = createSearcher(options_.search, options_.seed);
  }

  RunStatistics run() {
    start_ = Clock::now();
    auto initial = std::make_unique<ExecutionState>();
    initial->id = nextStateId_++;
    initial->nextAddress = kHeapBase;
    initial->nextSegmentAddress = kSegmentBase;
    for (const PathPrefix &p : options_.excluded)
      excluded_.insert(p.choices);
    setUpGlobals(*initial);
    if (!setUpEntry(*initial))
      return finish();
    // One state rebuilds all the start prefixes, in order, parting where they part: what they
    // share is replayed once.
    starts_ = options_.starts;
    std::sort(starts_.begin(), starts_.end(),
              [](const PathPrefix &a, const PathPrefix &b) { return a.choices < b.choices; });
    if (starts_.size() > 1)
      entry_ = std::make_unique<ExecutionState>(*initial);
    if (!starts_.empty()) {
      initial->choices = starts_[0].choices;
      initial->replayInstructions = starts_[0].instructions;
      initial->startsEnd = uint32_t(starts_.size());
    }
    searcher_->add(initial.get());
    states_.emplace(initial->id, std::move(initial));

    auto nextReport = start_;
    while (!searcher_->empty()) {
      ExecutionState &s = searcher_->select();
      if (limitReached())
        break;
      if (s.excluded) {
        dropState(s);
        reapTerminated();
        continue;
      }
      // A state runs on until it forks or ends (or a slice is used up): no pick per instruction.
      const uint64_t forksBefore = stats_.forks;
      paused_ = false;
      // Replay's time is that of the slices spent rebuilding start states (clocked only then).
      const bool rebuilding = s.instructions < s.replayInstructions;
      const Clock::time_point sliceStart = rebuilding ? Clock::now() : Clock::time_point{};
      for (unsigned slice = 0; slice < kSlice && stats_.forks == forksBefore && terminated_.empty() && !paused_ &&
                               !s.excluded && (!rebuilding || s.instructions < s.replayInstructions) &&
                               !(options_.maxInstructions && stats_.instructions >= options_.maxInstructions);
           ++slice)
        step(s);
      if (rebuilding)
        stats_.replaySeconds += std::chrono::duration<double>(Clock::now() - sliceStart).count();
      if (!isTerminated(&s) && !replaying(s) && s.startsEnd - s.startsBegin > 1) {
        replayAlone(s.startsBegin + 1, s.startsEnd); // never parted from it: cannot happen
        s.startsEnd = s.startsBegin + 1;
      }
      reapTerminated();
      completeMerges();
      if (size_t n = splitRequested_.exchange(0, std::memory_order_relaxed); n && !splitFrontier(n)) {
        size_t none = 0; // unless a newer request came meanwhile, this one waits for more states
        splitRequested_.compare_exchange_strong(none, n, std::memory_order_relaxed);
      }
      live_.store(states_.size(), std::memory_order_relaxed);
      if ((stats_.instructions & ~uint64_t(0xffff)) != lastCheck_) {
        lastCheck_ = stats_.instructions & ~uint64_t(0xffff);
        checkMemory();
        if (options_.onProgress && Clock::now() >= nextReport) {
          nextReport = Clock::now() + std::chrono::milliseconds(500);
          stats_.wallSeconds = seconds();
          stats_.linesCovered = covered_.size();
          stats_.linesTotal = program_.coverableLines;
          options_.onProgress(stats_, states_.size());
        }
      }
    }
    // Limits end the remaining states as partial paths, each with its test.
    for (auto &[id, s] : states_)
      if (!isTerminated(s.get()))
        terminate(*s, Termination{std::nullopt, true, true, limitReason_});
    reapTerminated();
    live_.store(0, std::memory_order_relaxed);
    return finish();
  }

  void requestSplit(size_t count) { splitRequested_.store(count, std::memory_order_relaxed); }
  size_t liveStates() const { return live_.load(std::memory_order_relaxed); }

private:
  // --- State management --------------------------------------------------------------------

  bool isTerminated(ExecutionState *s) const { return terminated_.count(s) != 0; }

  void reapTerminated() {
    if (terminated_.empty())
      return;
    for (ExecutionState *s : terminated_) {
      searcher_->remove(s);
      states_.erase(s->id);
    }
    terminated_.clear();
  }

  // --- Path prefixes -----------------------------------------------------------------------

  bool replaying(const ExecutionState &s) const { return s.replayed < s.choices.size(); }

  uint64_t replayNext(ExecutionState &s) {
    keepAgreeingStarts(s);
    return s.choices[s.replayed++];
  }

  // Of the start prefixes `s` rebuilds, from `from` on: where the run of those that take the
  // same value as `from` at the state's next choice ends (sorted, they agree on all before).
  size_t agreeingStarts(const ExecutionState &s, size_t from) const {
    const size_t p = s.replayed;
    const uint64_t value = starts_[from].choices[p];
    auto agrees = [&](size_t i) { return starts_[i].choices.size() > p && starts_[i].choices[p] == value; };
    if (agrees(s.startsEnd - 1)) // sorted: the last agreeing means all do
      return s.startsEnd;
    size_t i = from + 1;
    while (i < s.startsEnd && agrees(i))
      ++i;
    return i;
  }

  // Start prefixes part only at forks; any that part from `s` elsewhere are rebuilt on their own.
  void keepAgreeingStarts(ExecutionState &s) {
    if (s.startsEnd - s.startsBegin < 2)
      return;
    const size_t agreeing = agreeingStarts(s, s.startsBegin);
    replayAlone(agreeing, s.startsEnd);
    s.startsEnd = uint32_t(agreeing);
  }

  // Start prefixes [begin, end), each rebuilt by a state of its own from the entry.
  void replayAlone(size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      auto st = std::make_unique<ExecutionState>(*entry_);
      st->id = nextStateId_++;
      st->choices = starts_[i].choices;
      st->replayInstructions = starts_[i].instructions;
      st->startsBegin = uint32_t(i);
      st->startsEnd = uint32_t(i + 1);
      searcher_->add(st.get());
      states_.emplace(st->id, std::move(st));
    }
  }

  // At a fork being replayed: a copy of `s` for the start prefixes that take the other side, or
  // null when all take the side of `s` (each prefix names one side; a fork has two).
  ExecutionState *startsOnTheOtherSide(ExecutionState &s) {
    if (s.startsEnd - s.startsBegin < 2)
      return nullptr;
    const size_t other = agreeingStarts(s, s.startsBegin);
    if (other == s.startsEnd)
      return nullptr;
    if (starts_[other].choices.size() <= s.replayed) { // ends here: cannot happen
      replayAlone(other, s.startsEnd);
      s.startsEnd = uint32_t(other);
      return nullptr;
    }
    const size_t end = agreeingStarts(s, other);
    replayAlone(end, s.startsEnd); // a third value at a two-sided fork: cannot happen
    const uint64_t side = s.choices[s.replayed], otherSide = starts_[other].choices[s.replayed];
    if (!s.merges.empty() || side > 1 || otherSide > 1) { // not a fork of two sides
      replayAlone(other, end);
      s.startsEnd = uint32_t(other);
      return nullptr;
    }
    ExecutionState &copy = copyState(s);
    copy.choices = starts_[other].choices;
    copy.replayInstructions = starts_[other].instructions;
    copy.startsBegin = uint32_t(other);
    copy.startsEnd = uint32_t(end);
    s.startsEnd = uint32_t(other);
    return &copy;
  }

  void record(ExecutionState &s, uint64_t choice) {
    s.choices.push_back(choice);
    s.replayed = s.choices.size();
    if (!excluded_.empty() && excluded_.count(s.choices))
      s.excluded = true; // its subtree is another item's; it ends at the next pick, silently
  }

  u128 replayValue(ExecutionState &s, unsigned width) {
    u128 v = replayNext(s);
    if (width > 64)
      v |= u128(replayNext(s)) << 64;
    return v;
  }

  void recordValue(ExecutionState &s, u128 v, unsigned width) {
    record(s, uint64_t(v));
    if (width > 64)
      record(s, uint64_t(v >> 64));
  }

  // A state leaves without a trace: it was handed to another engine or is explored elsewhere.
  void dropState(ExecutionState &s) { terminated_.insert(&s); }

  // Hands states to onSplit, those nearest the entry first: at least `count`, and more until
  // they hold about half of the work, a state's share taken as halving with each fork deeper
  // (one state under depth-first search, where the shallowest holds half of what is left; half
  // of the states on a breadth-first frontier, whose states are alike). Keeps at least one;
  // false, without answering, while there are fewer than two to choose from.
  static constexpr size_t kMaxSplitStates = 4096; // they travel in one message
  bool splitFrontier(size_t count) {
    std::vector<PathPrefix> out;
    std::vector<ExecutionState *> candidates;
    for (auto &[id, st] : states_)
      if (!isTerminated(st.get()) && !replaying(*st) && !st->excluded && !st->merged &&
          st->merges.empty()) // a merge context's states wait for each other here
        candidates.push_back(st.get());
    if (candidates.size() < 2)
      return false;
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const ExecutionState *a, const ExecutionState *b) {
                       return a->depth < b->depth ||
                              (a->depth == b->depth && a->choices.size() < b->choices.size());
                     });
    const uint64_t shallowest = candidates.front()->depth;
    auto share = [&](const ExecutionState *st) {
      return std::ldexp(1.0, -int(std::min<uint64_t>(st->depth - shallowest, 60)));
    };
    double total = 0;
    for (const ExecutionState *st : candidates)
      total += share(st);
    double handed = 0;
    for (size_t i = 0; i + 1 < candidates.size() && i < kMaxSplitStates && (i < count || 2 * handed < total); ++i) {
      ExecutionState &st = *candidates[i];
      handed += share(&st);
      out.push_back(PathPrefix{st.choices, st.instructions});
      dropState(st);
    }
    reapTerminated();
    if (options_.onSplit)
      options_.onSplit(std::move(out));
    return true;
  }

  ExecutionState &fork(ExecutionState &s) {
    ++stats_.forks;
    return copyState(s);
  }

  // A new state as `s` is, placed beside it in the searcher (a fork, or a replay parting).
  ExecutionState &copyState(ExecutionState &s) {
    auto child = std::make_unique<ExecutionState>(s);
    child->id = nextStateId_++;
    ExecutionState &ref = *child;
    states_.emplace(ref.id, std::move(child));
    searcher_->forked(&s, &ref);
    return ref;
  }

  bool limitReached() {
    if (!limitReason_.empty())
      return true;
    if (options_.stopRequested && *options_.stopRequested)
      limitReason_ = "interrupted";
    else if (options_.maxInstructions && stats_.instructions >= options_.maxInstructions)
      limitReason_ = "instruction limit reached";
    else if (options_.maxTimeSeconds > 0 && ++limitChecks_ % 64 == 0 &&
             seconds() >= options_.maxTimeSeconds)
      limitReason_ = "time limit reached";
    return !limitReason_.empty();
  }

  // Over the memory limit, half of the states end as partial paths (each with its test), the
  // newest first: they have done the least work.
  void checkMemory() {
    if (!options_.maxMemoryMB)
      return;
    uint64_t rssMB = residentMegabytes();
    if (rssMB <= options_.maxMemoryMB || states_.size() < 2)
      return;
    spdlog::warn("memory {} MB over the {} MB limit: ending {} states", rssMB, options_.maxMemoryMB,
                 states_.size() / 2);
    size_t drop = states_.size() / 2;
    for (auto it = states_.rbegin(); it != states_.rend() && drop; ++it, --drop)
      terminate(*it->second, Termination{std::nullopt, true, true, "memory limit reached"});
    reapTerminated();
  }

  static uint64_t residentMegabytes() {
    FILE *f = std::fopen("/proc/self/statm", "r");
    if (!f)
      return 0;
    unsigned long pages = 0, resident = 0;
    int n = std::fscanf(f, "%lu %lu", &pages, &resident);
    std::fclose(f);
    return n == 2 ? resident * 4096 / (1024 * 1024) : 0;
  }

  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  // --- Set-up ------------------------------------------------------------------------------

  void setUpGlobals(ExecutionState &s) {
    for (const GlobalObject &g : program_.globals) {
      auto mo = std::make_shared<MemoryObject>();
      mo->id = nextObjectId_++;
      mo->address = g.address;
      mo->size = g.size;
      mo->kind = ObjectKind::Global;
      mo->readOnly = g.readOnly;
      mo->name = g.name;
      s.memory.bind(mo, std::make_shared<ObjectState>(g.size, g.bytes.data()));
    }
  }

  bool setUpEntry(ExecutionState &s) {
    const Function &entry = program_.functions[program_.entry];
    Frame f;
    f.function = program_.entry;
    f.regs.resize(entry.numRegs);
    enterBlock(f, 0, ~0u);
    s.stack.push_back(std::move(f));
    if (entry.numParams >= 2) { // main(argc, argv): the program arguments, concretely
      std::vector<std::string> args = {program_.functions[program_.entry].name};
      args.insert(args.end(), options_.programArgs.begin(), options_.programArgs.end());
      uint64_t argv = allocate(s, (args.size() + 1) * 8, ObjectKind::Argument, "argv", 0);
      for (size_t i = 0; i < args.size(); ++i) {
        uint64_t str = allocate(s, args[i].size() + 1, ObjectKind::Argument, "argv[" + std::to_string(i) + "]", 0);
        ObjectState &os = s.memory.writable(str);
        for (size_t k = 0; k < args[i].size(); ++k)
          os.write(ctx_, k, Value(u128(uint8_t(args[i][k]))), 1);
        s.memory.writable(argv).write(ctx_, i * 8, Value(u128(str)), 8);
      }
      s.top().regs[0] = Value(u128(args.size()));
      s.top().regs[1] = Value(u128(argv));
    }
    // Constructors run first: their frames go on top of the entry's, the first one last.
    for (size_t i = program_.constructors.size(); i-- > 0;) {
      const Function &ctor = program_.functions[program_.constructors[i]];
      if (ctor.declarationOnly)
        continue;
      Frame c;
      c.function = program_.constructors[i];
      c.regs.resize(ctor.numRegs);
      enterBlock(c, 0, ~0u);
      s.stack.push_back(std::move(c));
    }
    return true;
  }

  // Fresh memory reads as zero, like KLEE's default. With `sizeExpr`, `size` is the capacity.
  uint64_t allocate(ExecutionState &s, uint64_t size, ObjectKind kind, std::string name,
                    uint32_t loc, ExprRef sizeExpr = {}) {
    auto mo = std::make_shared<MemoryObject>();
    mo->id = nextObjectId_++;
    mo->address = s.nextAddress;
    mo->size = size;
    mo->sizeExpr = std::move(sizeExpr);
    mo->kind = kind;
    mo->name = std::move(name);
    mo->allocLoc = loc;
    if (symbolicBaseFor(kind))
      mo->base = baseAt(mo->address, size);
    if (options_.memory.contextDepth >= 0)
      mo->allocContext = allocationContext(s);
    s.nextAddress += (std::max<uint64_t>(size, 1) + kAllocGap + 15) / 16 * 16;
    s.memory.bind(mo, std::make_shared<ObjectState>(size));
    return mo->address;
  }

  // The pointer the program gets for the object at `address`: its base, symbolic or not.
  Value pointerTo(const ExecutionState &s, uint64_t address) const {
    const MemoryObject &mo = *s.memory.findBase(address)->object;
    return mo.base ? Value(mo.base) : Value(u128(address));
  }

  // --- Relocatable model -------------------------------------------------------------------

  bool relocatable() const { return options_.memory.relocatable(); }

  bool symbolicBaseFor(ObjectKind kind) const {
    return relocatable() &&
           (kind == ObjectKind::Heap || (kind == ObjectKind::Stack && options_.memory.relocateStack));
  }

  uint64_t homeAddress(const SymbolDecl *base) const { return homeAddressById_.at(base->id); }

  // A fresh base symbol, standing for `address` in every state where it has not moved.
  ExprRef newBase(uint64_t address, uint64_t size) {
    const SymbolDecl *d = ctx_.declareSymbol("base" + std::to_string(++nextBaseId_), 64,
                                             SymbolClass::Address, size);
    if (homeAddressById_.size() <= d->id)
      homeAddressById_.resize(d->id + 1);
    homeAddressById_[d->id] = address;
    return ctx_.symbol(d);
  }

  // The base of an object allocated at `address` with `size` bytes. Paths that allocate the same
  // object share its base: the allocator never reuses an address within a path, so a base still
  // names one object per state, and sibling paths then build the same pointer expressions, found
  // in the hash-consing table instead of made and freed again path after path.
  ExprRef baseAt(uint64_t address, uint64_t size) {
    std::vector<std::pair<uint64_t, ExprRef>> &here = basesByAddress_[address];
    for (const auto &[sz, base] : here)
      if (sz == size)
        return base;
    return here.emplace_back(size, newBase(address, size)).second;
  }

  // The allocation site and the call sites of the `contextDepth` frames above it.
  uint64_t allocationContext(const ExecutionState &s) const {
    uint64_t h = currentInstr_ * 0x9e3779b97f4a7c15ull;
    int depth = options_.memory.contextDepth;
    for (size_t i = s.stack.size() - 1; i-- > 0 && depth-- > 0;)
      h = (h ^ ((uint64_t(s.stack[i].function) << 32) | s.stack[i].pc)) * 0x100000001b3ull;
    return h;
  }

  ExprRef substitute(const ExecutionState &s, const ExprRef &e) {
    if (!e || !e->mentionsAddress())
      return e;
    return substitutionFor(s).apply(e);
  }

  // The value `e` has on this state's layout when the layout alone determines it.
  std::optional<u128> layoutValue(const ExecutionState &s, const ExprRef &e) {
    if (e->isConstant())
      return e->value();
    if (!e->mentionsAddress())
      return std::nullopt;
    return substitutionFor(s).valueOf(e);
  }

  // States whose objects never moved share one substitution (and what it remembers); the few
  // sets of bindings in use after moves get one each.
  AddressSubstitution &substitutionFor(const ExecutionState &s) {
    if (!s.relocated) {
      if (homeSubstitution_.remembered() > (size_t(1) << 21))
        homeSubstitution_.clear();
      return homeSubstitution_;
    }
    for (auto &[version, subst] : movedSubstitutions_)
      if (version == s.relocated->version)
        return *subst;
    if (movedSubstitutions_.size() >= 8)
      movedSubstitutions_.erase(movedSubstitutions_.begin());
    std::shared_ptr<const BaseBindings> bindings = s.relocated;
    movedSubstitutions_.emplace_back(
        bindings->version, std::make_unique<AddressSubstitution>(ctx_, [this, bindings](const SymbolDecl *b) {
          auto it = bindings->moved.find(b);
          return it != bindings->moved.end() ? it->second : homeAddress(b);
        }));
    return *movedSubstitutions_.back().second;
  }

  // The path constraints as the solver gets them.
  const std::vector<ExprRef> &solverConstraints(ExecutionState &s) {
    if (!relocatable())
      return s.constraints;
    for (; s.substitutedConstraints < s.constraints.size(); ++s.substitutedConstraints) {
      const ExprRef &symbolic = s.constraints[s.substitutedConstraints];
      if (layoutValue(s, symbolic) == u128(1))
        continue;
      ExprRef c = substitute(s, symbolic);
      if (!c->isTrue()) {
        s.solverConstraints.push_back(std::move(c));
        s.symbolicConstraints.push_back(s.constraints[s.substitutedConstraints]);
      }
    }
    return s.solverConstraints;
  }

  // The address a pointer has on this state when the layout alone determines it.
  std::optional<uint64_t> knownAddress(const ExecutionState &s, const Value &p) {
    if (p.concrete())
      return uint64_t(p.bits);
    if (!relocatable())
      return std::nullopt;
    std::optional<u128> v = layoutValue(s, p.sym);
    return v ? std::optional<uint64_t>(uint64_t(*v)) : std::nullopt;
  }

  void moveBases(ExecutionState &s, const std::vector<BaseMove> &moves) {
    auto b = std::make_shared<BaseBindings>(s.relocated ? *s.relocated : BaseBindings{});
    for (const BaseMove &m : moves)
      b->moved[m.base] = m.address;
    b->version = ++nextBindingsVersion_;
    s.relocated = std::move(b);
    s.solverConstraints.clear();
    s.symbolicConstraints.clear();
    s.substitutedConstraints = 0;
  }

  ExprRef inObject(const ExprRef &p, const MemoryObject &mo) {
    return ctx_.ult(ctx_.sub(p, baseOf(mo)), ctx_.constant(std::max<uint64_t>(mo.size, 1), 64));
  }

  // The objects `p` may point into on `s`, found without forking: nullopt when the solver
  // could not say. With context-based resolution, the objects allocated in the contexts seen
  // at this access before are tried first, and kept when p must point into one of them.
  std::optional<std::vector<uint64_t>> resolutionTargets(ExecutionState &s, const ExprRef &p) {
    std::vector<uint64_t> found;
    const std::vector<ExprRef> &constraints = solverConstraints(s);
    const bool byContext = options_.memory.contextDepth >= 0;
    if (byContext) {
      if (auto seen = contextsAt_.find(currentInstr_); seen != contextsAt_.end()) {
        ExprRef inSome = ctx_.falseExpr();
        for (const auto &[address, entry] : s.memory.objects()) {
          const MemoryObject &mo = *entry.object;
          if (mo.members.empty() && !seen->second.count(mo.allocContext))
            continue;
          ExprRef in = inObject(p, mo);
          ++stats_.queries;
          Answer<bool> may = solver_->mayBeTrue(constraints, substitute(s, in));
          if (!may.known())
            return std::nullopt;
          if (*may) {
            found.push_back(address);
            inSome = ctx_.lor(inSome, in);
          }
        }
        if (!found.empty()) {
          ++stats_.queries;
          Answer<bool> complete = solver_->mustBeTrue(constraints, substitute(s, inSome));
          if (!complete.known())
            return std::nullopt;
          if (*complete) {
            ++stats_.memory.contextHits;
            return found;
          }
        }
        ++stats_.memory.contextFallbacks;
        found.clear();
      }
    }
    // One object per model of p, excluding the objects found so far.
    ExprRef target = substitute(s, p);
    std::vector<ExprRef> query = constraints;
    if (ExprRef hitsSome = pointsIntoSomeObject(s, p))
      query.push_back(substitute(s, hitsSome));
    for (unsigned round = 0; round < kMaxTargets; ++round) {
      ++stats_.queries;
      SolverResponse r = solver_->check(Query(query, ctx_.trueExpr(), {target}), true);
      if (r.result == SatResult::Unknown)
        return std::nullopt;
      if (r.result == SatResult::Unsat)
        break;
      uint64_t value = uint64_t(cairn::evaluate(target.get(), r.model));
      const AddressSpace::Entry *e = s.memory.find(value);
      if (!e) { // p may miss every object: the resolution proper reports that
        query.push_back(ctx_.ne(target, ctx_.constant(value, 64)));
        continue;
      }
      found.push_back(e->object->address);
      query.push_back(ctx_.lnot(substitute(s, inObject(p, *e->object))));
      if (byContext && e->object->members.empty())
        contextsAt_[currentInstr_].insert(e->object->allocContext);
    }
    return found;
  }

  // Dynamic segments: when `p` may point into several heap objects, they move back to back
  // into one new segment, so resolving p finds one object and does not fork.
  void mergeTargets(ExecutionState &s, const ExprRef &p) {
    std::optional<std::vector<uint64_t>> targets = resolutionTargets(s, p);
    if (!targets || targets->size() < 2)
      return;
    std::sort(targets->begin(), targets->end());
    std::vector<uint64_t> sizes;
    // The state's next segment address is part of the key, so a reused segment lies where this
    // state would have put a fresh one.
    std::string key = std::to_string(currentInstr_) + "@" + std::to_string(s.nextSegmentAddress);
    for (uint64_t a : *targets) {
      const MemoryObject &mo = *s.memory.findBase(a)->object;
      if (!mo.base || mo.kind != ObjectKind::Heap || mo.split || mo.readOnly)
        return; // only whole heap objects with symbolic bases move
      sizes.push_back(mo.size);
      key += ":" + mo.base->symbol()->name + "/" + std::to_string(mo.size);
    }
    uint64_t total = 0;
    segmentLayout(sizes, total);
    MemoryObject segment;
    segment.id = nextObjectId_++;
    segment.size = total;
    segment.kind = ObjectKind::Heap;
    segment.name = "segment of " + std::to_string(targets->size()) + " objects";
    segment.allocLoc = currentLoc_;
    auto reused = options_.memory.reuseSegments ? segmentsByKey_.find(key) : segmentsByKey_.end();
    if (reused != segmentsByKey_.end()) {
      segment.base = reused->second;
      segment.address = homeAddress(segment.base->symbol());
      ++stats_.memory.segmentsReused;
    } else {
      segment.address = s.nextSegmentAddress;
      segment.base = newBase(segment.address, total);
      if (options_.memory.reuseSegments)
        segmentsByKey_.emplace(key, segment.base);
    }
    s.nextSegmentAddress += (std::max<uint64_t>(total, 1) + kAllocGap + 15) / 16 * 16;
    moveBases(s, mergeIntoSegment(ctx_, s.memory, std::move(segment), *targets));
    ++stats_.memory.segments;
    stats_.memory.segmentObjects += targets->size();
    stats_.memory.maxSegmentSize = std::max(stats_.memory.maxSegmentSize, total);
  }

  bool shouldSplit(const MemoryObject &mo, const ExprRef &offset) const {
    const MemoryModelOptions &m = options_.memory;
    return m.splitObjects && relocatable() && !offset->isConstant() && mo.base &&
           mo.kind == ObjectKind::Heap && mo.splittable && !mo.split && mo.members.empty() &&
           mo.size > m.splitThreshold && m.partitionSize < mo.size;
  }

  // Splits the object into chunks in place; every state splitting it gets the same chunk bases.
  void splitObject(ExecutionState &s, const MemoryObject &mo) {
    const uint64_t chunk = options_.memory.partitionSize;
    std::vector<ExprRef> &bases = chunkBases_[mo.base->symbol()];
    for (size_t i = bases.size() + 1; i < chunkCount(mo.size, chunk); ++i)
      bases.push_back(newBase(mo.address + i * chunk, std::min(chunk, mo.size - i * chunk)));
    splitIntoChunks(ctx_, s.memory, mo.address, chunk, bases, nextObjectId_);
    nextObjectId_ += bases.size() + 1;
    ++stats_.memory.splits;
    stats_.memory.chunks += bases.size() + 1;
    stats_.memory.maxSplitSize = std::max(stats_.memory.maxSplitSize, mo.size);
  }

  // --- Values ------------------------------------------------------------------------------

  Value eval(const Frame &f, Operand o) const {
    return o.constant ? Value(program_.constants[o.index]) : f.regs[o.index];
  }

  void enterBlock(Frame &f, uint32_t block, uint32_t from) {
    const Function &fn = program_.functions[f.function];
    const BasicBlock &b = fn.blocks[block];
    f.prevBlock = from;
    f.block = block;
    f.pc = b.firstInstr;
    for (const BasicBlock::Edge &e : b.edges) {
      if (e.from != from)
        continue;
      // Phi nodes read their sources before any of them is written.
      Value tmp[8];
      std::vector<Value> many;
      Value *vals = tmp;
      if (e.count > 8) {
        many.resize(e.count);
        vals = many.data();
      }
      for (uint32_t i = 0; i < e.count; ++i)
        vals[i] = eval(f, fn.phiMoves[e.first + i].src);
      for (uint32_t i = 0; i < e.count; ++i)
        f.regs[fn.phiMoves[e.first + i].dst] = std::move(vals[i]);
      break;
    }
  }

  // --- Solver questions with failure handling ---------------------------------------------

  // Decides `cond` on the state; nullopt when the solver could not (the state is ended).
  std::optional<Validity> decide(ExecutionState &s, const ExprRef &cond) {
    if (std::optional<u128> v = layoutValue(s, cond)) // the layout alone decides it
      return *v ? Validity::True : Validity::False;
    ExprRef c = substitute(s, cond);
    if (replaying(s))
      return Validity(replayNext(s));
    ++stats_.queries;
    const std::vector<ExprRef> &constraints = solverConstraints(s);
    AddressQuestion symbolic{s.symbolicConstraints, cond, layoutQuestion_ || s.layoutDependent};
    Answer<Validity> v = solver_->evaluate(constraints, c, addressCache() ? &symbolic : nullptr);
    if (!v.known()) {
      terminate(s, Termination{std::nullopt, true, true, "solver failure: " + v.reason});
      return std::nullopt;
    }
    record(s, uint64_t(*v));
    return *v;
  }

  void pushConstraint(ExecutionState &s, const ExprRef &c) {
    if (!c->isTrue())
      s.constraints.push_back(c);
  }

  // A constraint added without a fork: in a merge context, a split whose other side no state
  // takes, so the execution tree stays a picture of the path condition.
  void addConstraint(ExecutionState &s, const ExprRef &c) {
    if (c->isTrue())
      return;
    s.constraints.push_back(c);
    for (MergeMembership &m : s.merges)
      m.node = m.context->tree.split(m.node, c).first;
  }

  // Forks on `cond`: returns the states where it holds and where it does not (either may be
  // null). The original state becomes the true side when both are feasible.
  using Sides = std::pair<ExecutionState *, ExecutionState *>;
  Sides branch(ExecutionState &s, const ExprRef &cond) {
    if (cond->isConstant())
      return cond->isTrue() ? Sides{&s, nullptr} : Sides{nullptr, &s};
    std::optional<Validity> v = decide(s, cond);
    if (!v)
      return {nullptr, nullptr};
    if (*v == Validity::True)
      return {&s, nullptr};
    if (*v == Validity::False)
      return {nullptr, &s};
    if (replaying(s)) { // the prefix names this path's side; the other is another item's
      if (ExecutionState *other = startsOnTheOtherSide(s)) { // or another start's, here too
        ExecutionState &t = s.choices[s.replayed++] ? s : *other;
        ExecutionState &f = &t == &s ? *other : s;
        ++other->replayed;
        pushConstraint(t, cond);
        pushConstraint(f, ctx_.lnot(cond));
        t.decisions.push_back(1);
        f.decisions.push_back(0);
        ++t.depth;
        ++f.depth;
        return {&t, &f};
      }
      uint64_t side = replayNext(s);
      if (side == kFollowedWithoutFork) {
        addConstraint(s, cond);
        return {&s, nullptr};
      }
      addConstraint(s, side ? cond : ctx_.lnot(cond));
      s.decisions.push_back(uint8_t(side));
      ++s.depth;
      return side ? Sides{&s, nullptr} : Sides{nullptr, &s};
    }
    if (options_.maxForks && stats_.forks >= options_.maxForks) {
      addConstraint(s, cond); // past the fork limit, follow one side
      record(s, kFollowedWithoutFork);
      return {&s, nullptr};
    }
    if (options_.maxDepth && s.depth >= options_.maxDepth) {
      terminate(s, Termination{std::nullopt, true, true, "depth limit reached"});
      return {nullptr, nullptr};
    }
    maybeOpenLoopContext(s, cond);
    ExecutionState &other = fork(s);
    pushConstraint(s, cond);
    pushConstraint(other, ctx_.lnot(cond));
    noteFork(s, other, cond);
    s.decisions.push_back(1);
    other.decisions.push_back(0);
    record(s, 1);
    record(other, 0);
    ++s.depth;
    ++other.depth;
    return {&s, &other};
  }

  bool addressCache() const { return options_.solver.addressCache && relocatable(); }

  // A branch on where objects lie (a pointer leaving the object it was derived from): the
  // address-aware cache answers neither it nor any later question of the states it leads to.
  Sides layoutBranch(ExecutionState &s, const ExprRef &cond) {
    layoutQuestion_ = true;
    Sides sides = branch(s, cond);
    layoutQuestion_ = false;
    for (ExecutionState *t : {sides.first, sides.second})
      if (t)
        t->layoutDependent = true;
    return sides;
  }

  // A concrete value the expression can take on this state, constrained to it.
  std::optional<u128> concretize(ExecutionState &s, const Value &v, unsigned width,
                                 bool constrain) {
    if (v.concrete())
      return v.bits;
    // The constraint is added with addresses substituted: it is a fact about the inputs, which
    // stays true wherever objects move later.
    if (std::optional<u128> known = layoutValue(s, v.sym))
      return known;
    ExprRef e = substitute(s, v.sym);
    std::optional<u128> value;
    if (replaying(s)) {
      value = replayValue(s, width);
    } else {
      ++stats_.queries;
      const std::vector<ExprRef> &constraints = solverConstraints(s);
      AddressQuestion symbolic{s.symbolicConstraints, ctx_.trueExpr(), s.layoutDependent};
      Answer<u128> answer = solver_->getValue(constraints, e, addressCache() ? &symbolic : nullptr);
      if (!answer.known()) {
        terminate(s, Termination{std::nullopt, true, true, "solver failure: " + answer.reason});
        return std::nullopt;
      }
      value = *answer;
      recordValue(s, *value, width);
    }
    if (constrain)
      addConstraint(s, ctx_.eq(e, ctx_.constant(*value, width)));
    return *value;
  }

  // --- Errors and termination --------------------------------------------------------------

  const SourceLocation &loc(uint32_t id) const { return program_.locations[id]; }

  std::string where(uint32_t locId) const {
    const SourceLocation &l = loc(locId);
    if (!l.line)
      return "unknown location";
    return program_.files[l.file] + ":" + std::to_string(l.line);
  }

  // The error's location: the current instruction, or the call into the runtime that led to
  // it when it happened inside Cairn's own library code.
  ErrorReport makeError(ExecutionState &s, std::string type, std::string kind,
                        std::string message) {
    ErrorReport e{std::move(type), std::move(kind), std::move(message), {}, 0, {}};
    uint32_t here = currentLoc_;
    for (size_t i = s.stack.size(); i-- > 0;) {
      const Frame &f = s.stack[i];
      const Function &fn = program_.functions[f.function];
      e.stack.push_back(fn.name + " at " + where(here));
      if (!e.line && !fn.isRuntime && loc(here).line) {
        e.file = program_.files[loc(here).file];
        e.line = loc(here).line;
      }
      here = f.callLoc;
    }
    return e;
  }

  void reportError(ExecutionState &s, ErrorReport e) {
    terminate(s, Termination{std::move(e), false, true, {}});
  }

  void terminate(ExecutionState &s, Termination t) {
    if (isTerminated(&s))
      return;
    if (s.excluded)
      return dropState(s);
    terminated_.insert(&s);
    leaveMergeContexts(s);
    if (t.partial)
      ++stats_.pathsPartial;
    else
      ++stats_.pathsCompleted;
    if (t.error) {
      std::string key = t.error->file + ":" + std::to_string(t.error->line) + ":" + t.error->type +
                        ":" + t.error->kind;
      if (!reportedErrors_.insert(key).second)
        return; // one test per error location, as KLEE does
    }
    if (!t.writeTest)
      return;
    TestCase test;
    std::vector<ExprRef> arrays;
    for (const SymbolicInput &in : s.inputs)
      arrays.push_back(ctx_.symbol(in.array));
    ++stats_.queries;
    const std::vector<ExprRef> &constraints = solverConstraints(s);
    AddressQuestion symbolic{s.symbolicConstraints, ctx_.trueExpr(), s.layoutDependent};
    Answer<Assignment> model =
        solver_->getInitialValues(constraints, arrays, addressCache() ? &symbolic : nullptr);
    if (!model.known()) {
      spdlog::warn("no test for a path: the solver gave no model ({})", model.reason);
      if (t.error) // the error still counts, without inputs
        stats_.errors.push_back(*t.error);
      return;
    }
    for (const SymbolicInput &in : s.inputs) {
      std::vector<uint8_t> bytes(in.size);
      for (uint64_t i = 0; i < in.size; ++i)
        bytes[i] = uint8_t(model->element(in.array, i));
      test.objects.emplace_back(in.name, std::move(bytes));
    }
    test.error = t.error;
    test.partial = t.partial;
    test.endReason = t.reason;
    test.path = s.decisions;
    test.output = s.output;
    if (t.error)
      stats_.errors.push_back(*t.error);
    ++stats_.tests;
    sink_.onTest(test);
  }

  // --- Symbolic-size model ------------------------------------------------------------------

  // Allocates `size` bytes and calls `done(state, address)` on each state that results: one,
  // or one per feasible size in eager mode. Address 0: the allocation failed (too large).
  template <class Done>
  void allocateSized(ExecutionState &s, const Value &size, ObjectKind kind, const std::string &name,
                     uint32_t loc, Done done) {
    if (size.concrete() || !options_.sizeModel.symbolic()) {
      std::optional<u128> n = concretize(s, size, 64, true);
      if (!n)
        return;
      return done(s, *n > kMaxAllocation ? 0 : allocate(s, uint64_t(*n), kind, name, loc));
    }
    const ExprRef sigma = ctx_.zextOrTrunc(size.sym, 64);
    std::optional<uint64_t> capacity = boundSize(s, sigma);
    if (!capacity)
      return;
    if (*capacity > kMaxAllocation)
      return done(s, 0);
    if (options_.sizeModel.mode == SizeMode::Eager) {
      ExecutionState *rest = &s;
      for (uint64_t v = 0; rest && v <= *capacity; ++v) {
        auto [hit, miss] = branch(*rest, ctx_.eq(sigma, ctx_.constant(v, 64)));
        if (hit && miss)
          ++stats_.merging.sizeForks;
        if (hit)
          done(*hit, allocate(*hit, v, kind, name, loc));
        rest = miss;
      }
      return;
    }
    uint64_t a = allocate(s, *capacity, kind, name, loc, sigma);
    ++stats_.merging.symbolicSizeObjects;
    SymbolCollector symbols;
    symbols.add(sigma.get());
    auto taint = std::make_shared<std::vector<const SymbolDecl *>>(
        s.sizeSymbols ? *s.sizeSymbols : std::vector<const SymbolDecl *>{});
    for (const SymbolDecl *d : symbols.symbols())
      if (std::find(taint->begin(), taint->end(), d) == taint->end())
        taint->push_back(d);
    s.sizeSymbols = std::move(taint);
    done(s, a);
  }

  // The capacity a symbolic size gets: the configured one, raised (in steps, past a value the
  // size can take) while the path cannot keep the size that small; the size is then bounded
  // by it. nullopt when the state ended.
  std::optional<uint64_t> boundSize(ExecutionState &s, const ExprRef &size) {
    const SizeModelOptions &o = options_.sizeModel;
    uint64_t capacity = o.capacity;
    for (;;) {
      ExprRef fits = ctx_.ule(size, ctx_.constant(capacity, 64));
      std::optional<Validity> v = decide(s, fits);
      if (!v)
        return std::nullopt;
      if (*v == Validity::Either)
        addConstraint(s, fits);
      if (*v != Validity::False)
        return capacity;
      std::optional<u128> possible = concretize(s, Value(size), 64, false);
      if (!possible)
        return std::nullopt;
      if (*possible > kMaxAllocation)
        return kMaxAllocation + 1;
      uint64_t step = std::max<uint64_t>(o.capacityStep, 1);
      capacity = (uint64_t(*possible) + step - 1) / step * step;
      spdlog::info("capacity raised to {} for a symbolic-size allocation at {}", capacity, where(currentLoc_));
    }
  }

  // calloc's size: count times element size, each a size_t.
  Value product(const Value &count, const Value &each) {
    if (count.concrete() && each.concrete()) {
      u128 n = count.bits * each.bits;
      bool overflows = each.bits && n / each.bits != count.bits;
      return Value(overflows ? u128(kMaxAllocation) + 1 : n);
    }
    return Value(ctx_.mul(count.expr(ctx_, 64), each.expr(ctx_, 64)));
  }

  // --- State merging -----------------------------------------------------------------------

  MergeContext &openMergeContext(ExecutionState &s, MergeContext::Kind kind) {
    auto c = std::make_shared<MergeContext>(ctx_);
    c->kind = kind;
    c->function = s.top().function;
    c->frameDepth = s.stack.size();
    c->prefixConstraints = s.constraints.size();
    c->prefixDecisions = s.decisions.size();
    s.merges.push_back({c, 0});
    ++stats_.merging.contexts;
    return *c;
  }

  void closeMergeRegion(ExecutionState &s) {
    if (!s.merges.empty() && s.merges.back().context->kind == MergeContext::Kind::Region)
      return arrive(s);
    if (!warnedUnmatchedClose_)
      spdlog::warn("klee_close_merge at {} without a klee_open_merge before it: ignored", where(currentLoc_));
    warnedUnmatchedClose_ = true;
  }

  // Merge modes: a fork inside a loop on a condition over a symbolic size makes the loop
  // size-dependent, and the states it forks merge where they leave it. Loops with inner loops
  // or calls (unless allowed) are left alone, as is a state already in a loop context.
  void maybeOpenLoopContext(ExecutionState &s, const ExprRef &cond) {
    if (!options_.sizeModel.mergeLoops() || !s.sizeSymbols)
      return;
    const Frame &f = s.top();
    const Function &fn = program_.functions[f.function];
    uint32_t loop = fn.blockLoop.empty() ? 0 : fn.blockLoop[f.block];
    if (!loop)
      return;
    const Loop &l = fn.loops[loop - 1];
    if (l.hasInnerLoops || (l.callsFunctions && !options_.merging.loopsWithCalls))
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
      openMergeContext(s, MergeContext::Kind::Loop).loop = loop - 1;
  }

  // Both sides of a fork stay in every context the state is in; each tree records the split.
  void noteFork(ExecutionState &s, ExecutionState &other, const ExprRef &cond) {
    for (size_t i = 0; i < s.merges.size(); ++i) {
      MergeContext &c = *s.merges[i].context;
      ++c.live;
      auto [t, f] = c.tree.split(s.merges[i].node, cond);
      s.merges[i].node = t;
      other.merges[i].node = f;
    }
  }

  // The state is about to run the first instruction after the loop of its innermost context.
  bool leftLoop(const ExecutionState &s) const {
    const MergeContext &c = *s.merges.back().context;
    if (c.kind != MergeContext::Kind::Loop || s.stack.size() != c.frameDepth)
      return false;
    const Frame &f = s.stack.back();
    return f.function == c.function && program_.functions[f.function].blockLoop[f.block] != c.loop + 1;
  }

  // The state waits, out of the searcher, until every state of its context got here or ended.
  void arrive(ExecutionState &s) {
    const std::shared_ptr<MergeContext> &c = s.merges.back().context;
    searcher_->remove(&s);
    paused_ = true;
    c->arrived.push_back(&s);
    if (--c->live == 0)
      pendingMerges_.push_back(c);
  }

  // An ending state leaves its contexts: no longer awaited, or no longer waiting.
  void leaveMergeContexts(ExecutionState &s) {
    for (size_t i = s.merges.size(); i-- > 0;) {
      const std::shared_ptr<MergeContext> &c = s.merges[i].context;
      auto waiting = std::find(c->arrived.begin(), c->arrived.end(), &s);
      if (waiting != c->arrived.end()) {
        c->arrived.erase(waiting);
        continue;
      }
      if (i + 1 == s.merges.size())
        ++stats_.merging.earlyTerminated;
      if (--c->live == 0)
        pendingMerges_.push_back(c);
    }
    s.merges.clear();
  }

  // Contexts whose states all arrived or ended: the waiting states at the same instruction
  // merge into one, which goes on; a group too large or incompatible goes on unmerged.
  void completeMerges() {
    while (!pendingMerges_.empty()) {
      std::shared_ptr<MergeContext> c = std::move(pendingMerges_.back());
      pendingMerges_.pop_back();
      std::map<std::vector<uint32_t>, std::vector<ExecutionState *>> groups; // by position
      for (ExecutionState *s : c->arrived) {
        std::vector<uint32_t> position;
        for (const Frame &f : s->stack)
          position.insert(position.end(), {f.function, f.block, f.pc});
        groups[position].push_back(s);
      }
      c->arrived.clear();
      const bool tree = c->kind == MergeContext::Kind::Region
                            ? options_.merging.treeEncoding
                            : options_.sizeModel.mode == SizeMode::MergeOpt;
      uint8_t exit = 0;
      for (auto &[position, group] : groups) {
        if (group.size() > 1 && group.size() <= options_.merging.maxStates) {
          MergeOutcome o = mergeStates(ctx_, program_, *c, group, tree);
          if (o.merged) {
            ++stats_.merging.merges;
            stats_.merging.statesMerged += group.size();
            stats_.merging.constraintNodes += o.constraintNodes;
            stats_.merging.valueNodes += o.valueNodes;
            for (size_t i = 1; i < group.size(); ++i)
              discardMerged(*group[i]);
            group.resize(1);
            // Merged paths of one context differ by their exit: keep their identities apart.
            group[0]->decisions.push_back(uint8_t(2 + exit));
          } else {
            ++stats_.merging.refused;
            spdlog::debug("{} states not merged at {}: {}", group.size(), where(currentLoc_), o.refusal);
          }
        } else if (group.size() > 1) {
          ++stats_.merging.refused;
        }
        exit = uint8_t(std::min(exit + 1, 253));
        for (ExecutionState *s : group) {
          s->merges.pop_back();
          searcher_->add(s);
        }
      }
    }
    reapTerminated();
  }

  // A state merged into another: no path ends; enclosing contexts now count one state less
  // and their trees no longer match their states.
  void discardMerged(ExecutionState &s) {
    s.merges.pop_back();
    for (MergeMembership &m : s.merges) {
      m.context->treeExact = false;
      --m.context->live;
    }
    s.merges.clear();
    terminated_.insert(&s);
  }

  // --- Memory access -----------------------------------------------------------------------

  // Resolves an access of `bytes` at `address` to one object per feasible target, forking when
  // the address may point into several objects, and calls `access(state, entry, offset)` for
  // each. Reports out-of-bounds, null and use-after-free errors on the states that go astray.
  // An address the layout determines (a concrete one, or a base plus a constant) takes the
  // concrete path: no solver question.
  template <class Access>
  void resolve(ExecutionState &s, const Value &address, unsigned bytes, bool write, Access access) {
    std::optional<uint64_t> known = knownAddress(s, address);
    if (!known)
      return resolveSymbolic(s, address, bytes, write, access);
    uint64_t a = *known;
    const AddressSpace::Entry *e = s.memory.find(a);
    if (e && e->object->sizeExpr)
      return resolveSymbolic(s, address, bytes, write, access); // checks need the size expression
    if (e && e->object->split && a - e->object->address + bytes > e->object->size &&
        a + bytes <= e->object->split->address + e->object->split->size) {
      joinChunks(ctx_, s.memory, *e->object->split); // an access across chunks
      return resolve(s, address, bytes, write, access);
    }
    if (!e || a - e->object->address + bytes > e->object->size) {
      memoryError(s, a, bytes, e);
      return;
    }
    if (!e->object->members.empty() && !checkMemberAccess(s, *e, a, bytes))
      return;
    if (write && e->object->readOnly) {
      reportError(s, makeError(s, "ptr", "read-only", "write to read-only memory " + e->object->name));
      return;
    }
    access(s, *e, Value(u128(a - e->object->address)));
  }

  // A concrete access into a segment must stay within one live member.
  bool checkMemberAccess(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes) {
    uint64_t off = a - e.object->address;
    for (const SegmentMember &m : e.object->members) {
      if (off < m.offset || off >= m.offset + std::max<uint64_t>(m.size, 1))
        continue;
      if (m.freed) {
        reportError(s, makeError(s, "ptr", "use-after-free", "memory error: use after free"));
        return false;
      }
      if (off + bytes <= m.offset + m.size)
        return true;
      break;
    }
    reportError(s, makeError(s, "ptr", "out-of-bounds",
                             "memory error: out of bound pointer (" + std::to_string(bytes) +
                                 "-byte access at offset " + std::to_string(off) + " of " +
                                 e.object->name + ", outside its objects)"));
    return false;
  }

  // p lies in one of the state's objects; null when there are too many objects to say so in
  // one formula (the caller then rules out one address at a time).
  ExprRef pointsIntoSomeObject(ExecutionState &s, const ExprRef &p) {
    constexpr size_t kMaxObjects = 256;
    if (s.memory.objects().size() > kMaxObjects)
      return ExprRef();
    ExprRef any = ctx_.falseExpr();
    for (const auto &[base, entry] : s.memory.objects()) {
      const MemoryObject &mo = *entry.object;
      ExprRef extent = ctx_.constant(std::max<uint64_t>(mo.size, 1), 64);
      any = ctx_.lor(any, ctx_.ult(ctx_.sub(p, baseOf(mo)), extent));
    }
    return any;
  }

  // Whether resolving `p` to `mo` relates p to another object's place: p is not derived from
  // mo's base (relocatable model; the address-aware cache must not answer such questions).
  bool leavesItsObject(const ExprRef &p, const MemoryObject &mo) {
    if (!mo.base)
      return p->mentionsAddress();
    SymbolCollector symbols;
    symbols.add(p.get());
    const auto &found = symbols.symbols();
    return std::find(found.begin(), found.end(), mo.base->symbol()) == found.end();
  }

  ExprRef baseOf(const MemoryObject &mo) {
    return mo.base ? mo.base : ctx_.constant(mo.address, 64);
  }
  ExprRef sizeOf(const MemoryObject &mo) {
    return mo.sizeExpr ? mo.sizeExpr : ctx_.constant(mo.size, 64);
  }

  // One target object at a time, found by asking the solver for a value of the address; the
  // bounds are checked against the object's base and size expressions.
  template <class Access>
  void resolveSymbolic(ExecutionState &s, const Value &address, unsigned bytes, bool write,
                       Access access) {
    // Counted once per access, however often a split or a join re-runs it.
    const bool outermost = resolutionDepth_++ == 0;
    const uint64_t queriesBefore = stats_.queries;
    resolveTargets(s, address, bytes, write, access);
    if (outermost)
      stats_.memory.resolutionQueries += stats_.queries - queriesBefore;
    --resolutionDepth_;
  }

  // `merge`: objects may move into a segment first (not when re-run after a split or a join).
  template <class Access>
  void resolveTargets(ExecutionState &s, const Value &address, unsigned bytes, bool write,
                      Access access, bool merge = true) {
    ExprRef p = address.expr(ctx_, 64);
    if (merge && options_.memory.mergeObjects && relocatable()) {
      mergeTargets(s, p);
      if (isTerminated(&s))
        return;
    }
    ExecutionState *rest = &s;
    for (unsigned round = 0; rest && round < kMaxTargets; ++round) {
      std::optional<u128> sample = concretize(*rest, address, 64, false);
      if (!sample)
        return;
      const AddressSpace::Entry *e = rest->memory.find(uint64_t(*sample));
      if (!e) {
        // The address may miss every object: one error state for all such addresses, and the
        // rest, which must hit some object, goes on being resolved.
        ExprRef hitsSome = pointsIntoSomeObject(*rest, p);
        ExprRef astray = hitsSome ? ctx_.lnot(hitsSome) : ctx_.eq(p, ctx_.constant(*sample, 64));
        auto [bad, others] = layoutBranch(*rest, astray);
        if (bad)
          memoryError(*bad, uint64_t(*sample), bytes, nullptr);
        rest = others;
        continue;
      }
      // Held: a split below unbinds the object from the state that may be its only owner.
      const std::shared_ptr<const MemoryObject> object = e->object;
      const MemoryObject &mo = *object;
      ExprRef offset = ctx_.sub(p, baseOf(mo));
      // In the object's extent at all (a zero-sized object still owns its first byte), then
      // within its size for the whole access.
      const bool cross = addressCache() && leavesItsObject(p, mo);
      auto [inside, outside] = cross ? layoutBranch(*rest, inObject(p, mo)) : branch(*rest, inObject(p, mo));
      if (inside && outside)
        ++stats_.memory.resolutionForks;
      if (inside) {
        ExprRef size = sizeOf(mo), n = ctx_.constant(bytes, 64);
        ExprRef fits = ctx_.land(ctx_.ule(n, size), ctx_.ule(offset, ctx_.sub(size, n)));
        auto [ok, overflow] = cross ? layoutBranch(*inside, fits) : branch(*inside, fits);
        if (overflow)
          overflowAccess(*overflow, mo, p, uint64_t(*sample), address, bytes, write, access);
        if (ok && shouldSplit(mo, offset)) {
          splitObject(*ok, mo);
          resolveTargets(*ok, address, bytes, write, access, false); // again, on the chunks
        } else if (ok) {
          const AddressSpace::Entry *entry = ok->memory.findBase(mo.address);
          if (write && mo.readOnly)
            reportError(*ok, makeError(*ok, "ptr", "read-only", "write to read-only memory " + mo.name));
          else
            access(*ok, *entry, Value(offset));
        }
      }
      rest = outside;
    }
    if (rest)
      terminate(*rest, Termination{std::nullopt, true, true, "too many objects for one pointer"});
  }

  // An access that starts in `mo` and runs past its end: an error, unless `mo` is a chunk and
  // the access stays within the object it was split from; then that object is joined again
  // and the access re-run.
  template <class Access>
  void overflowAccess(ExecutionState &s, const MemoryObject &mo, const ExprRef &p, uint64_t sample,
                      const Value &address, unsigned bytes, bool write, Access access) {
    if (!mo.split) {
      memoryError(s, sample, bytes, s.memory.find(sample));
      return;
    }
    const SplitOrigin &origin = *mo.split;
    ExprRef offset = ctx_.sub(p, origin.base);
    ExprRef within = ctx_.ule(offset, ctx_.constant(origin.size - bytes, 64));
    auto [joined, astray] = bytes <= origin.size ? branch(s, within) : Sides{nullptr, &s};
    if (astray)
      memoryError(*astray, sample, bytes, astray->memory.find(sample));
    if (joined) {
      joinChunks(ctx_, joined->memory, origin);
      resolveTargets(*joined, address, bytes, write, access, false);
    }
  }

  void memoryError(ExecutionState &s, uint64_t address, unsigned bytes,
                   const AddressSpace::Entry *near) {
    if (address < kNullPage) {
      reportError(s, makeError(s, "ptr", "null", "memory error: null pointer dereference"));
      return;
    }
    for (const auto &[base, size] : s.freed)
      if (address >= base && address < base + std::max<uint64_t>(size, 1)) {
        reportError(s, makeError(s, "ptr", "use-after-free", "memory error: use after free"));
        return;
      }
    std::string what = "memory error: out of bound pointer";
    if (near)
      what += " (" + std::to_string(bytes) + "-byte access at offset " +
              std::to_string(int64_t(address - near->object->address)) + " of " +
              std::to_string(near->object->size) + "-byte object " + near->object->name + ")";
    reportError(s, makeError(s, "ptr", "out-of-bounds", what));
  }

  Value readAt(const AddressSpace::Entry &e, const Value &offset, unsigned bytes) {
    if (offset.concrete())
      return e.state->read(ctx_, uint64_t(offset.bits), bytes);
    countSymbolicAccess(*e.object);
    return e.state->readSymbolic(ctx_, offset.sym, bytes);
  }

  void writeAt(ExecutionState &s, const AddressSpace::Entry &e, const Value &offset,
               const Value &v, unsigned bytes) {
    ObjectState &os = s.memory.writable(e.object->address);
    if (offset.concrete()) {
      os.write(ctx_, uint64_t(offset.bits), v, bytes);
    } else {
      countSymbolicAccess(*e.object);
      os.writeSymbolic(ctx_, offset.sym, v, bytes);
    }
  }

  void countSymbolicAccess(const MemoryObject &mo) {
    ++stats_.memory.symbolicAccesses;
    stats_.memory.symbolicAccessBytes += mo.size;
    stats_.memory.maxSymbolicAccessBytes = std::max(stats_.memory.maxSymbolicAccessBytes, mo.size);
  }

  // Reads a NUL-terminated string with concrete bytes (for messages and printf).
  std::string readString(ExecutionState &s, const Value &address, size_t limit = 4096) {
    std::optional<uint64_t> start = knownAddress(s, address);
    if (!start)
      return "(symbolic string)";
    std::string out;
    uint64_t a = *start;
    while (out.size() < limit) {
      const AddressSpace::Entry *e = s.memory.find(a);
      if (!e)
        break;
      Value byte = e->state->read(ctx_, a - e->object->address, 1);
      uint8_t c = 0;
      if (byte.concrete()) {
        c = uint8_t(byte.bits);
      } else if (replaying(s)) {
        c = uint8_t(replayNext(s));
      } else {
        Answer<u128> v = solver_->getValue(solverConstraints(s), substitute(s, byte.sym));
        c = v.known() ? uint8_t(*v) : '?';
        record(s, c);
      }
      if (!c)
        break;
      out.push_back(char(c));
      ++a;
    }
    return out;
  }

  // --- The interpreter ---------------------------------------------------------------------

  // The per-location flag keeps the common case (a location seen before) to one load.
  void cover(ExecutionState &s, uint32_t locId) {
    if (locationSeen_[locId])
      return;
    locationSeen_[locId] = true;
    const SourceLocation &l = loc(locId);
    if (!l.line)
      return;
    uint64_t key = (uint64_t(l.file) << 32) | l.line;
    if (covered_.insert(key).second)
      s.instructionsSinceNewCoverage = 0;
  }

  void setReg(ExecutionState &s, const Instr &in, Value v) { s.top().regs[in.dst] = std::move(v); }

  void step(ExecutionState &s) {
    if (!s.merges.empty() && leftLoop(s))
      return arrive(s);
    Frame &f = s.top();
    const Function &fn = program_.functions[f.function];
    currentInstr_ = (uint64_t(f.function) << 32) | f.pc;
    const Instr &in = fn.instrs[f.pc++];
    currentLoc_ = in.loc;
    ++s.instructions;
    ++s.instructionsSinceNewCoverage;
    if (s.instructions <= s.replayInstructions)
      ++stats_.replayInstructions;
    else
      ++stats_.instructions;
    if (!program_.functions[f.function].isRuntime)
      cover(s, in.loc);

    if (in.lanes > 1 && in.op != Opcode::Shuffle)
      return vectorOp(s, in);
    switch (in.op) {
    case Opcode::Binary: return binary(s, in);
    case Opcode::Compare: {
      Value a = eval(f, in.a), b = eval(f, in.b);
      if (a.concrete() && b.concrete()) {
        u128 r = foldBinary(in.kind, a.bits, b.bits, in.imm);
        return setReg(s, in, Value(in.negate ? r ^ 1 : r));
      }
      ExprRef e = ctx_.build(in.kind, std::array{a.expr(ctx_, in.imm), b.expr(ctx_, in.imm)});
      return setReg(s, in, Value(in.negate ? ctx_.lnot(e) : e));
    }
    case Opcode::ZExt:
    case Opcode::Move: {
      Value a = eval(f, in.a);
      if (a.concrete())
        return setReg(s, in, Value(a.bits));
      return setReg(s, in, Value(ctx_.zextOrTrunc(a.sym, in.width)));
    }
    case Opcode::SExt: {
      Value a = eval(f, in.a);
      if (a.concrete())
        return setReg(s, in, Value(foldUnary(Kind::SExt, a.bits, in.imm, in.width)));
      return setReg(s, in, Value(ctx_.sext(a.sym, in.width)));
    }
    case Opcode::Trunc: {
      Value a = eval(f, in.a);
      if (a.concrete())
        return setReg(s, in, Value(a.bits & widthMask(in.width)));
      return setReg(s, in, Value(ctx_.extract(a.sym, 0, in.width)));
    }
    case Opcode::Select: {
      Value c = eval(f, in.a);
      if (c.concrete())
        return setReg(s, in, c.bits ? eval(f, in.b) : eval(f, in.c));
      return setReg(s, in, Value(ctx_.ite(c.sym, eval(f, in.b).expr(ctx_, in.width),
                                          eval(f, in.c).expr(ctx_, in.width))));
    }
    case Opcode::ExtractBits: {
      Value a = eval(f, in.a);
      if (a.concrete())
        return setReg(s, in, Value((a.bits >> in.imm) & widthMask(in.width)));
      return setReg(s, in, Value(ctx_.extract(a.sym, in.imm, in.width)));
    }
    case Opcode::InsertBits: return insertBits(s, in);
    case Opcode::Alloca: {
      Value count = eval(f, in.a);
      Value size = count.concrete() ? Value(u128(uint64_t(count.bits) * in.imm))
                                    : Value(ctx_.mul(ctx_.zextOrTrunc(count.sym, 64), ctx_.constant(in.imm, 64)));
      allocateSized(s, size, ObjectKind::Stack, "local in " + fn.name, in.loc,
                    [&](ExecutionState &st, uint64_t a) {
                      st.top().allocas.push_back(a);
                      setReg(st, in, pointerTo(st, a));
                    });
      return;
    }
    case Opcode::Load: {
      unsigned bytes = (in.width + 7) / 8;
      uint32_t dst = in.dst;
      unsigned width = in.width;
      resolve(s, eval(f, in.a), bytes, false,
              [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &offset) {
                Value v = readAt(e, offset, bytes);
                if (width % 8 && v.concrete())
                  v.bits &= widthMask(width);
                else if (width % 8)
                  v = Value(ctx_.extract(v.sym, 0, width));
                st.top().regs[dst] = std::move(v);
              });
      return;
    }
    case Opcode::Store: {
      unsigned bytes = (in.width + 7) / 8;
      Value v = eval(f, in.a);
      if (in.width % 8 && !v.concrete())
        v = Value(ctx_.zext(v.sym, bytes * 8));
      resolve(s, eval(f, in.b), bytes, true,
              [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &offset) {
                writeAt(st, e, offset, v, bytes);
              });
      return;
    }
    case Opcode::Gep: return gep(s, in, fn);
    case Opcode::Br: return enterBlock(f, in.target, f.block);
    case Opcode::CondBr: {
      Value c = eval(f, in.a);
      if (c.concrete())
        return enterBlock(f, c.bits ? in.target : in.target2, f.block);
      uint32_t from = f.block;
      auto [t, e] = branch(s, c.sym);
      if (t)
        enterBlock(t->top(), in.target, from);
      if (e)
        enterBlock(e->top(), in.target2, from);
      return;
    }
    case Opcode::Switch:
    case Opcode::IndirectBr: return switchOn(s, in, fn);
    case Opcode::Ret: return ret(s, in);
    case Opcode::Unreachable:
      return reportError(s, makeError(s, "exec", "unreachable", "reached an unreachable instruction"));
    case Opcode::Call: return call(s, in, fn);
    case Opcode::Float: return floatOp(s, in);
    case Opcode::AtomicRmw:
    case Opcode::CmpXchg: return atomic(s, in);
    case Opcode::ExtractElement: {
      Value v = eval(f, in.a), idx = eval(f, in.b);
      unsigned lane = in.width;
      if (idx.concrete()) {
        if (idx.bits >= in.count)
          return setReg(s, in, Value(u128(0))); // poison in LLVM: any value will do
        return setReg(s, in, laneOf(v, lane, unsigned(idx.bits)));
      }
      ExprRef r = ctx_.constant(0, lane);
      for (unsigned i = in.count; i-- > 0;)
        r = ctx_.ite(ctx_.eq(idx.sym, ctx_.constant(i, in.imm)), laneOf(v, lane, i).expr(ctx_, lane), r);
      return setReg(s, in, Value(r));
    }
    case Opcode::InsertElement: {
      Value v = eval(f, in.a), e = eval(f, in.b), idx = eval(f, in.c);
      unsigned lane = in.count, lanes = in.width / lane;
      std::vector<Value> parts;
      for (unsigned i = 0; i < lanes; ++i) {
        Value old = laneOf(v, lane, i);
        if (idx.concrete())
          parts.push_back(idx.bits == i ? e : old);
        else
          parts.push_back(Value(ctx_.ite(ctx_.eq(idx.sym, ctx_.constant(i, in.imm)),
                                         e.expr(ctx_, lane), old.expr(ctx_, lane))));
      }
      return setReg(s, in, pack(parts, lane));
    }
    case Opcode::Shuffle: {
      Value a = eval(f, in.a), b = eval(f, in.b);
      unsigned lane = in.width / in.lanes;
      std::vector<Value> parts;
      for (unsigned i = 0; i < in.lanes; ++i) {
        int m = fn.shuffleMasks[in.imm + i];
        if (m < 0)
          parts.push_back(Value(u128(0)));
        else
          parts.push_back(unsigned(m) < in.count ? laneOf(a, lane, unsigned(m))
                                                 : laneOf(b, lane, unsigned(m) - in.count));
      }
      return setReg(s, in, pack(parts, lane));
    }
    }
  }

  // One thread: an atomic read-modify-write is a checked load, the operation and a store.
  void atomic(ExecutionState &s, const Instr &in) {
    Frame &f = s.top();
    const unsigned w = in.count, bytes = (w + 7) / 8;
    Value operand = eval(f, in.b), replacement = in.op == Opcode::CmpXchg ? eval(f, in.c) : Value();
    resolve(s, eval(f, in.a), bytes, true,
            [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &offset) {
              Value oldV = readAt(e, offset, bytes);
              ExprRef old = oldV.expr(ctx_, w), x = operand.expr(ctx_, w);
              ExprRef next, result;
              if (in.op == Opcode::CmpXchg) {
                ExprRef same = ctx_.eq(old, x);
                next = ctx_.ite(same, replacement.expr(ctx_, w), old);
                // {old, success}: the flag sits right after the value's bytes.
                result = ctx_.concat(ctx_.zext(same, in.width - w), old);
              } else {
                switch (RmwOp(in.imm)) {
                case RmwOp::Xchg: next = x; break;
                case RmwOp::Add: next = ctx_.add(old, x); break;
                case RmwOp::Sub: next = ctx_.sub(old, x); break;
                case RmwOp::And: next = ctx_.bvand(old, x); break;
                case RmwOp::Nand: next = ctx_.bvnot(ctx_.bvand(old, x)); break;
                case RmwOp::Or: next = ctx_.bvor(old, x); break;
                case RmwOp::Xor: next = ctx_.bvxor(old, x); break;
                case RmwOp::Max: next = ctx_.ite(ctx_.slt(old, x), x, old); break;
                case RmwOp::Min: next = ctx_.ite(ctx_.slt(old, x), old, x); break;
                case RmwOp::UMax: next = ctx_.ite(ctx_.ult(old, x), x, old); break;
                case RmwOp::UMin: next = ctx_.ite(ctx_.ult(old, x), old, x); break;
                }
                result = old;
              }
              writeAt(st, e, offset, Value(next), bytes);
              st.top().regs[in.dst] = Value(result);
            });
  }

  Value laneOf(const Value &v, unsigned laneBits, unsigned i) {
    if (v.concrete())
      return Value((v.bits >> (i * laneBits)) & widthMask(laneBits));
    return Value(ctx_.extract(v.sym, i * laneBits, laneBits));
  }

  // Lane 0 goes to the lowest bits, as in LLVM's vector layout.
  Value pack(const std::vector<Value> &lanes, unsigned laneBits) {
    bool concrete = true;
    for (const Value &v : lanes)
      concrete &= v.concrete();
    if (concrete) {
      u128 r = 0;
      for (size_t i = lanes.size(); i-- > 0;)
        r = (r << laneBits) | (lanes[i].bits & widthMask(laneBits));
      return Value(r);
    }
    ExprRef r = lanes[0].expr(ctx_, laneBits);
    for (size_t i = 1; i < lanes.size(); ++i)
      r = ctx_.concat(lanes[i].expr(ctx_, laneBits), r);
    return Value(r);
  }

  // Element-wise arithmetic, comparisons, casts and selects on fixed-width vectors.
  void vectorOp(ExecutionState &s, const Instr &in) {
    Frame &f = s.top();
    const unsigned L = in.lanes, out = in.width / L;
    Value a = eval(f, in.a), b = eval(f, in.b), c = eval(f, in.c);
    std::vector<Value> parts;
    for (unsigned i = 0; i < L; ++i) {
      switch (in.op) {
      case Opcode::Binary: {
        Value x = laneOf(a, out, i), y = laneOf(b, out, i);
        if (x.concrete() && y.concrete())
          parts.push_back(Value(foldBinary(in.kind, x.bits, y.bits, out)));
        else
          parts.push_back(Value(ctx_.build(in.kind, std::array{x.expr(ctx_, out), y.expr(ctx_, out)})));
        break;
      }
      case Opcode::Compare: {
        unsigned w = in.imm / L;
        Value x = laneOf(a, w, i), y = laneOf(b, w, i);
        if (x.concrete() && y.concrete()) {
          u128 r = foldBinary(in.kind, x.bits, y.bits, w);
          parts.push_back(Value(in.negate ? r ^ 1 : r));
        } else {
          ExprRef e = ctx_.build(in.kind, std::array{x.expr(ctx_, w), y.expr(ctx_, w)});
          parts.push_back(Value(in.negate ? ctx_.lnot(e) : e));
        }
        break;
      }
      case Opcode::ZExt:
      case Opcode::SExt:
      case Opcode::Trunc: {
        unsigned w = in.imm / L;
        Value x = laneOf(a, w, i);
        if (in.op == Opcode::Trunc)
          parts.push_back(laneOf(x, out, 0));
        else if (x.concrete())
          parts.push_back(Value(in.op == Opcode::ZExt ? x.bits : foldUnary(Kind::SExt, x.bits, w, out)));
        else
          parts.push_back(Value(in.op == Opcode::ZExt ? ctx_.zext(x.sym, out) : ctx_.sext(x.sym, out)));
        break;
      }
      case Opcode::Select: {
        Value cond = laneOf(a, 1, i), x = laneOf(b, out, i), y = laneOf(c, out, i);
        if (cond.concrete())
          parts.push_back(cond.bits ? x : y);
        else
          parts.push_back(Value(ctx_.ite(cond.sym, x.expr(ctx_, out), y.expr(ctx_, out))));
        break;
      }
      default:
        return reportError(s, makeError(s, "exec", "unsupported", "unsupported vector operation"));
      }
    }
    setReg(s, in, pack(parts, out));
  }

  // Floating point runs on the host's arithmetic; a symbolic operand ends the path.
  void floatOp(ExecutionState &s, const Instr &in) {
    Frame &f = s.top();
    FloatOp op = FloatOp(in.imm);
    const bool threeOperands = op == FloatOp::MulAdd || op == FloatOp::FusedMulAdd;
    const bool twoOperands = threeOperands || op <= FloatOp::Rem || op >= FloatOp::CmpFirst;
    Value a = eval(f, in.a), b = twoOperands ? eval(f, in.b) : Value(), c = threeOperands ? eval(f, in.c) : Value();
    if (!a.concrete() || !b.concrete() || !c.concrete())
      return reportError(s, makeError(s, "model", "symbolic-float",
                                      "floating-point operation on a symbolic value"));
    setReg(s, in, Value(hostFloatOp(op, in.count, in.width, a.bits, b.bits, c.bits)));
  }

  void binary(ExecutionState &s, const Instr &in) {
    Frame &f = s.top();
    Value a = eval(f, in.a), b = eval(f, in.b);
    const bool division = in.kind == Kind::UDiv || in.kind == Kind::SDiv ||
                          in.kind == Kind::URem || in.kind == Kind::SRem;
    if (division) {
      if (b.concrete() && b.bits == 0)
        return reportError(s, makeError(s, "div", "division-by-zero", "division by zero"));
      if (!b.concrete()) {
        ExprRef zero = ctx_.eq(b.sym, ctx_.constant(0, in.width));
        auto [bad, ok] = branch(s, zero);
        if (bad)
          reportError(*bad, makeError(*bad, "div", "division-by-zero", "division by zero"));
        if (!ok)
          return;
        // `ok` is `s` or its fork; either way its registers are unchanged.
        Frame &fo = ok->top();
        a = eval(fo, in.a);
        b = eval(fo, in.b);
        ok->top().regs[in.dst] = Value(ctx_.build(in.kind, std::array{a.expr(ctx_, in.width), b.expr(ctx_, in.width)}));
        return;
      }
    }
    if (options_.checkOverflow && in.noSignedWrap && !checkSignedOverflow(s, in, a, b))
      return;
    if (options_.checkOvershift && (in.kind == Kind::Shl || in.kind == Kind::LShr || in.kind == Kind::AShr) &&
        !checkOvershift(s, in, b))
      return;
    if (a.concrete() && b.concrete())
      return setReg(s, in, Value(foldBinary(in.kind, a.bits, b.bits, in.width)));
    setReg(s, in, Value(ctx_.build(in.kind, std::array{a.expr(ctx_, in.width), b.expr(ctx_, in.width)})));
  }

  // Forks off the states where the operation would overflow as signed integers; returns
  // whether `s` goes on.
  bool checkSignedOverflow(ExecutionState &s, const Instr &in, const Value &a, const Value &b) {
    if (in.kind != Kind::Add && in.kind != Kind::Sub && in.kind != Kind::Mul)
      return true;
    const unsigned w = in.width, wide = std::min(2 * w, 128u);
    if (w >= 128)
      return true;
    ExprRef exact = ctx_.build(in.kind, std::array{ctx_.sext(a.expr(ctx_, w), wide), ctx_.sext(b.expr(ctx_, w), wide)});
    ExprRef fits = ctx_.eq(ctx_.sext(ctx_.extract(exact, 0, w), wide), exact);
    auto [ok, overflow] = branch(s, fits);
    if (overflow)
      reportError(*overflow, makeError(*overflow, "overflow", "signed-overflow",
                                       std::string("signed integer overflow in ") + kindName(in.kind)));
    return ok == &s;
  }

  bool checkOvershift(ExecutionState &s, const Instr &in, const Value &amount) {
    ExprRef ok = ctx_.ult(amount.expr(ctx_, in.width), ctx_.constant(in.width, in.width));
    auto [fine, bad] = branch(s, ok);
    if (bad)
      reportError(*bad, makeError(*bad, "overflow", "overshift", "shift by the width of the value or more"));
    return fine == &s;
  }

  void insertBits(ExecutionState &s, const Instr &in) {
    Frame &f = s.top();
    Value a = eval(f, in.a), b = eval(f, in.b);
    if (a.concrete() && b.concrete()) {
      u128 mask = widthMask(in.count) << in.imm;
      return setReg(s, in, Value((a.bits & ~mask) | ((b.bits << in.imm) & mask)));
    }
    ExprRef whole = a.expr(ctx_, in.width), part = b.expr(ctx_, in.count);
    ExprRef r = part;
    if (in.imm > 0)
      r = ctx_.concat(r, ctx_.extract(whole, 0, in.imm));
    if (in.imm + in.count < in.width)
      r = ctx_.concat(ctx_.extract(whole, in.imm + in.count, in.width - in.imm - in.count), r);
    setReg(s, in, Value(r));
  }

  void gep(ExecutionState &s, const Instr &in, const Function &fn) {
    Frame &f = s.top();
    Value base = eval(f, in.a);
    u128 constant = (base.concrete() ? base.bits : 0) + u128(uint64_t(in.offset));
    bool concrete = base.concrete();
    ExprRef sum;
    for (uint32_t i = 0; i < in.count; ++i) {
      const GepTerm &t = fn.gepTerms[in.imm + i];
      Value idx = eval(f, t.index);
      if (idx.concrete()) {
        u128 v = foldUnary(Kind::SExt, idx.bits, t.indexWidth, 64);
        constant += v * u128(uint64_t(t.scale));
        continue;
      }
      concrete = false;
      ExprRef term = ctx_.mul(ctx_.sextOrTrunc(idx.sym, 64), ctx_.constant(uint64_t(t.scale), 64));
      sum = sum ? ctx_.add(sum, term) : term;
    }
    constant &= widthMask(64);
    if (concrete)
      return setReg(s, in, Value(constant));
    if (!sum) // a symbolic base moved by a constant (in relocatable: a pointer into its object)
      return setReg(s, in, Value(ctx_.addConstant(base.sym, constant)));
    ExprRef r = ctx_.constant(constant, 64);
    if (!base.concrete())
      r = ctx_.add(r, base.sym);
    if (sum)
      r = ctx_.add(r, sum);
    setReg(s, in, Value(r));
  }

  // Also an indirectbr: a switch on the address over the labels it may jump to, where an
  // address that is none of them is a wild jump rather than a default (named as a native
  // jump to a non-function is, so replay agrees).
  void switchOn(ExecutionState &s, const Instr &in, const Function &fn) {
    Frame &f = s.top();
    Value v = eval(f, in.a);
    uint32_t from = f.block;
    const uint32_t cameFrom = f.prevBlock;
    auto otherwise = [&](ExecutionState &st) {
      if (in.op != Opcode::IndirectBr)
        return enterBlock(st.top(), in.target, from);
      // clang gives a function one indirectbr, with no location, that each computed goto
      // branches to: the error is that goto's.
      if (!loc(in.loc).line && cameFrom < fn.blocks.size()) {
        size_t next = cameFrom + 1 < fn.blocks.size() ? fn.blocks[cameFrom + 1].firstInstr : fn.instrs.size();
        currentLoc_ = fn.instrs[next - 1].loc;
      }
      reportError(st, makeError(st, "ptr", "invalid-function-pointer",
                                "indirect branch to an address that is none of its labels"));
    };
    if (v.concrete()) {
      for (uint32_t i = 0; i < in.count; ++i)
        if (fn.switchCases[in.imm + i].value == v.bits)
          return enterBlock(f, fn.switchCases[in.imm + i].target, from);
      return otherwise(s);
    }
    ExecutionState *rest = &s;
    for (uint32_t i = 0; i < in.count && rest; ++i) {
      const SwitchCase &c = fn.switchCases[in.imm + i];
      auto [hit, miss] = branch(*rest, ctx_.eq(v.sym, ctx_.constant(c.value, in.width)));
      if (hit)
        enterBlock(hit->top(), c.target, from);
      rest = miss;
    }
    if (rest)
      otherwise(*rest);
  }

  void releaseFrame(ExecutionState &s, Frame &f) {
    for (uint64_t a : f.allocas)
      s.memory.unbind(a);
    if (f.varargs)
      s.memory.unbind(f.varargs);
  }

  void ret(ExecutionState &s, const Instr &in) {
    Frame &f = s.top();
    Value result = in.hasValue ? eval(f, in.a) : Value();
    uint32_t dst = f.callerDst;
    releaseFrame(s, f);
    s.stack.pop_back();
    if (s.stack.empty())
      return terminate(s, Termination{});
    if (dst != ~0u)
      s.top().regs[dst] = std::move(result);
  }

  // --- Calls -------------------------------------------------------------------------------

  void call(ExecutionState &s, const Instr &in, const Function &fn) {
    const CallSite &site = fn.callSites[in.imm];
    Frame &f = s.top();
    std::vector<Value> args;
    args.reserve(site.numArgs);
    for (uint32_t i = 0; i < site.numArgs; ++i)
      args.push_back(eval(f, fn.callArgs[site.firstArg + i]));
    switch (site.kind) {
    case CallKind::Special: return special(s, in, site, args);
    case CallKind::Direct: return enterFunction(s, in, site.callee, args, site);
    case CallKind::Indirect: {
      Value target = eval(f, site.target);
      if (target.concrete())
        return callAddress(s, in, uint64_t(target.bits), args, site);
      // A symbolic function pointer: one path per function it can point to.
      ExecutionState *rest = &s;
      for (unsigned round = 0; rest && round < 64; ++round) {
        std::optional<u128> v = concretize(*rest, target, 64, false);
        if (!v)
          return;
        auto [hit, miss] = branch(*rest, ctx_.eq(target.sym, ctx_.constant(*v, 64)));
        if (hit)
          callAddress(*hit, in, uint64_t(*v), args, site);
        rest = miss;
      }
      if (rest)
        terminate(*rest, Termination{std::nullopt, true, true, "too many call targets"});
      return;
    }
    }
  }

  void callAddress(ExecutionState &s, const Instr &in, uint64_t address,
                   const std::vector<Value> &args, const CallSite &site) {
    uint64_t off = address - Program::kFunctionBase;
    if (address < Program::kFunctionBase || off % Program::kFunctionStride ||
        off / Program::kFunctionStride >= program_.functions.size())
      return reportError(s, makeError(s, "ptr", "invalid-function-pointer",
                                      "call through an invalid function pointer"));
    enterFunction(s, in, uint32_t(off / Program::kFunctionStride), args, site);
  }

  void enterFunction(ExecutionState &s, const Instr &in, uint32_t index,
                     const std::vector<Value> &args, const CallSite &site) {
    const Function &callee = program_.functions[index];
    if (callee.declarationOnly)
      return reportError(s, makeError(s, "external", "external-call",
                                      "call to function '" + callee.name +
                                          "', which is neither defined nor modelled"));
    if (s.stack.size() >= 10000)
      return reportError(s, makeError(s, "exec", "stack-overflow", "call stack exhausted"));
    Frame f;
    f.function = index;
    f.callerDst = in.dst;
    f.callLoc = in.loc;
    f.regs.resize(callee.numRegs);
    for (uint32_t i = 0; i < callee.numParams && i < args.size(); ++i) {
      uint32_t copy = i < site.byValSizes.size() ? site.byValSizes[i] : 0;
      if (!copy) {
        f.regs[i] = args[i];
        continue;
      }
      // byval: the callee gets its own copy of the caller's object.
      uint64_t mine = allocate(s, copy, ObjectKind::Stack, "by-value argument of " + callee.name, in.loc);
      f.allocas.push_back(mine);
      Value dst = pointerTo(s, mine);
      Value count{u128(copy)};
      copyMemory(s, dst, args[i], count, 64);
      if (isTerminated(&s))
        return;
      f.regs[i] = dst;
    }
    if (callee.variadic && args.size() > callee.numParams) {
      // The overflow area va_arg reads: each extra argument in 8-byte slots, a by-value
      // aggregate as its bytes (rounded up to 8), as the x86-64 ABI lays out the stack.
      std::vector<uint64_t> offsets;
      uint64_t size = 0;
      for (size_t i = callee.numParams; i < args.size(); ++i) {
        offsets.push_back(size);
        uint32_t copy = i < site.byValSizes.size() ? site.byValSizes[i] : 0;
        size += copy ? (copy + 7) / 8 * 8 : 8;
      }
      f.varargs = allocate(s, size, ObjectKind::Stack, "varargs of " + callee.name, in.loc);
      for (size_t i = callee.numParams; i < args.size(); ++i) {
        uint64_t at = offsets[i - callee.numParams];
        uint32_t copy = i < site.byValSizes.size() ? site.byValSizes[i] : 0;
        if (copy) {
          copyMemory(s, Value{u128(f.varargs + at)}, args[i], Value{u128(copy)}, 64);
          if (isTerminated(&s))
            return;
          continue;
        }
        Value v = args[i];
        if (!v.concrete() && site.argWidths[i] < 64)
          v = Value(ctx_.zext(v.sym, 64));
        s.memory.writable(f.varargs).write(ctx_, at, v, 8);
      }
    }
    enterBlock(f, 0, ~0u);
    s.stack.push_back(std::move(f));
  }

  void returnValue(ExecutionState &s, const Instr &in, Value v) {
    if (in.dst != ~0u)
      s.top().regs[in.dst] = std::move(v);
  }

  // As in KLEE, input names are unique per path, not per run: the same input made symbolic on
  // two paths is one array, so their queries can be equal (and cached) across the fork.
  const SymbolDecl *inputArray(const ExecutionState &s, const std::string &name, uint64_t size) {
    std::string unique = name;
    auto taken = [&](const std::string &n) {
      return std::any_of(s.inputs.begin(), s.inputs.end(), [&](const SymbolicInput &in) { return in.array->name == n; });
    };
    for (unsigned n = 1; taken(unique) || (inputArrays_.count({unique, size}) == 0 && ctx_.findSymbol(unique)); ++n)
      unique = name + "_" + std::to_string(n);
    const SymbolDecl *&decl = inputArrays_[{unique, size}];
    if (!decl)
      decl = ctx_.declareArray(unique, size, 64, 8);
    return decl;
  }

  void special(ExecutionState &s, const Instr &in, const CallSite &site, std::vector<Value> &args) {
    auto arg = [&](size_t i) -> const Value & { return args.at(i); };
    switch (Special(site.callee)) {
    case Special::MakeSymbolic: {
      std::optional<u128> addr = concretize(s, arg(0), 64, true);
      if (!addr)
        return;
      // A symbolic-size object made symbolic by its size expression: all of its capacity.
      const AddressSpace::Entry *whole = s.memory.findBase(uint64_t(*addr));
      std::optional<u128> size =
          whole && whole->object->sizeExpr && !arg(1).concrete() &&
                  ctx_.zextOrTrunc(arg(1).sym, 64) == whole->object->sizeExpr
              ? std::optional<u128>(whole->object->size)
              : concretize(s, arg(1), 64, true);
      if (!size)
        return;
      std::string name = readString(s, arg(2));
      const AddressSpace::Entry *e = s.memory.find(uint64_t(*addr));
      if (!e || uint64_t(*addr) - e->object->address + uint64_t(*size) > e->object->size)
        return reportError(s, makeError(s, "user", "make-symbolic",
                                        "klee_make_symbolic: the memory is not one object of that size"));
      if (name.empty())
        name = "unnamed";
      const SymbolDecl *decl = inputArray(s, name, uint64_t(*size));
      ExprRef array = ctx_.symbol(decl);
      ObjectState &os = s.memory.writable(e->object->address);
      uint64_t off = uint64_t(*addr) - e->object->address;
      if (off == 0 && *size == e->object->size) {
        os.makeSymbolic(ctx_, array);
      } else {
        for (uint64_t i = 0; i < *size; ++i)
          os.write(ctx_, off + i, Value(ctx_.select(array, ctx_.constant(i, 64))), 1);
      }
      s.inputs.push_back({name, decl, uint64_t(*size)});
      return;
    }
    case Special::Assume: {
      const Value &c = arg(0);
      ExprRef cond = c.concrete() ? ctx_.boolean(c.bits != 0)
                                  : ctx_.lnot(ctx_.eq(c.sym, ctx_.constant(0, site.argWidths[0])));
      if (cond->isFalse())
        return reportError(s, makeError(s, "user", "assume", "klee_assume: the condition is provably false"));
      if (cond->isTrue())
        return;
      std::optional<Validity> v = decide(s, cond);
      if (!v)
        return;
      if (*v == Validity::False)
        return reportError(s, makeError(s, "user", "assume", "klee_assume: the condition is provably false"));
      addConstraint(s, cond);
      return;
    }
    case Special::Abort: return reportError(s, makeError(s, "abort", "abort", "abort() called"));
    case Special::SilentExit: return terminate(s, Termination{std::nullopt, false, false, {}});
    case Special::Exit: return terminate(s, Termination{});
    case Special::ReportError: {
      std::string file = readString(s, arg(0));
      std::optional<u128> line = concretize(s, arg(1), site.argWidths[1], false);
      std::string message = readString(s, arg(2));
      std::string suffix = readString(s, arg(3));
      if (!line)
        return;
      std::string type = suffix.substr(0, suffix.find('.'));
      if (type.empty())
        type = "user";
      ErrorReport e = makeError(s, type, type == "assert" ? "assertion-failure" : type, message);
      if (arg(0).concrete() && arg(0).bits && *line) { // the caller named the place
        e.file = file;
        e.line = uint32_t(*line);
      }
      return reportError(s, std::move(e));
    }
    case Special::IsSymbolic: return returnValue(s, in, Value(u128(arg(0).concrete() ? 0 : 1)));
    case Special::GetValue: {
      std::optional<u128> v = concretize(s, arg(0), site.argWidths[0], true);
      if (v)
        returnValue(s, in, Value(*v));
      return;
    }
    case Special::OpenMerge:
      openMergeContext(s, MergeContext::Kind::Region);
      return;
    case Special::CloseMerge: return closeMergeRegion(s);
    case Special::Ignored:
    case Special::VaEnd: return;
    case Special::Identity: return returnValue(s, in, arg(0));
    case Special::Malloc:
    case Special::Calloc: {
      Value size = Special(site.callee) == Special::Calloc ? product(arg(0), arg(1)) : arg(0);
      allocateSized(s, size, ObjectKind::Heap, "heap object", in.loc, [&](ExecutionState &st, uint64_t a) {
        returnValue(st, in, a ? pointerTo(st, a) : Value(u128(0)));
      });
      return;
    }
    case Special::Realloc: return reallocate(s, in, site, args);
    case Special::Free: return freeObject(s, arg(0));
    case Special::Printf: return printf(s, in, args);
    case Special::Fprintf: {
      std::optional<std::string> out = format(s, args, 1);
      if (!out)
        return;
      s.output += *out;
      return returnValue(s, in, Value(u128(out->size())));
    }
    case Special::Sprintf: return sprintf(s, in, args, false);
    case Special::Snprintf: return sprintf(s, in, args, true);
    case Special::Fputs:
      s.output += readString(s, arg(0));
      return returnValue(s, in, Value(u128(1)));
    case Special::Fputc: {
      std::optional<u128> c = concretize(s, arg(0), 32, false);
      if (c)
        s.output.push_back(char(*c));
      return returnValue(s, in, c ? Value(*c) : Value());
    }
    case Special::Fflush: return returnValue(s, in, Value(u128(0)));
    case Special::Puts:
      s.output += readString(s, arg(0)) + "\n";
      return returnValue(s, in, Value(u128(1)));
    case Special::Putchar: {
      std::optional<u128> c = concretize(s, arg(0), 32, false);
      if (c)
        s.output.push_back(char(*c));
      return returnValue(s, in, c ? Value(*c) : Value());
    }
    case Special::Memcpy:
    case Special::Memmove: return copyMemory(s, arg(0), arg(1), arg(2), site.argWidths[2]);
    case Special::Memset: return setMemory(s, arg(0), arg(1), arg(2), site.argWidths[2]);
    default: break;
    }
    if (bitIntrinsic(s, in, site, args))
      return;
    reportError(s, makeError(s, "exec", "unsupported", "unsupported call to " + site.calleeName));
  }

  bool bitIntrinsic(ExecutionState &s, const Instr &in, const CallSite &site, std::vector<Value> &args) {
    const unsigned w = site.argWidths.empty() ? 0 : site.argWidths[0];
    auto x = [&](size_t i) { return args[i].expr(ctx_, w); };
    ExprRef r;
    switch (Special(site.callee)) {
    case Special::Abs: {
      ExprRef v = x(0);
      r = ctx_.ite(ctx_.slt(v, ctx_.constant(0, w)), ctx_.neg(v), v);
      break;
    }
    case Special::Smin: r = ctx_.ite(ctx_.slt(x(0), x(1)), x(0), x(1)); break;
    case Special::Smax: r = ctx_.ite(ctx_.slt(x(0), x(1)), x(1), x(0)); break;
    case Special::Umin: r = ctx_.ite(ctx_.ult(x(0), x(1)), x(0), x(1)); break;
    case Special::Umax: r = ctx_.ite(ctx_.ult(x(0), x(1)), x(1), x(0)); break;
    case Special::UAddSat:
    case Special::USubSat:
    case Special::SAddSat:
    case Special::SSubSat: {
      Special k = Special(site.callee);
      bool isSigned = k == Special::SAddSat || k == Special::SSubSat;
      Kind op = k == Special::UAddSat || k == Special::SAddSat ? Kind::Add : Kind::Sub;
      ExprRef a = x(0), b = x(1);
      // Signed operations overflow towards the first operand's sign; unsigned additions up,
      // subtractions down.
      ExprRef limit = ctx_.constant(op == Kind::Add ? widthMask(w) : 0, w);
      if (isSigned)
        limit = ctx_.ite(ctx_.slt(a, ctx_.constant(0, w)), ctx_.constant(u128(1) << (w - 1), w),
                         ctx_.constant(widthMask(w - 1), w));
      r = ctx_.ite(overflowFlag(ctx_, op, isSigned, a, b), limit, ctx_.build(op, std::array{a, b}));
      break;
    }
    case Special::Bswap: {
      ExprRef v = x(0);
      r = ctx_.extract(v, 0, 8);
      for (unsigned i = 1; i < w / 8; ++i)
        r = ctx_.concat(r, ctx_.extract(v, 8 * i, 8));
      break;
    }
    case Special::Ctpop: {
      ExprRef v = x(0);
      r = ctx_.constant(0, w);
      for (unsigned i = 0; i < w; ++i)
        r = ctx_.add(r, ctx_.zext(ctx_.extract(v, i, 1), w));
      break;
    }
    case Special::Ctlz:
    case Special::Cttz: {
      ExprRef v = x(0);
      bool leading = Special(site.callee) == Special::Ctlz;
      r = ctx_.constant(w, w);
      // Innermost: the bit farthest from the counted end.
      for (unsigned k = 0; k < w; ++k) {
        unsigned i = leading ? k : w - 1 - k; // position of the bit tested at this level
        unsigned count = leading ? w - 1 - i : i;
        r = ctx_.ite(ctx_.eq(ctx_.extract(v, i, 1), ctx_.constant(1, 1)), ctx_.constant(count, w), r);
      }
      break;
    }
    case Special::Fshl:
    case Special::Fshr: {
      ExprRef a = x(0), b = x(1), sh = ctx_.urem(x(2), ctx_.constant(w, w));
      ExprRef inv = ctx_.sub(ctx_.constant(w, w), sh);
      ExprRef isZero = ctx_.eq(sh, ctx_.constant(0, w));
      if (Special(site.callee) == Special::Fshl)
        r = ctx_.ite(isZero, a, ctx_.bvor(ctx_.shl(a, sh), ctx_.lshr(b, inv)));
      else
        r = ctx_.ite(isZero, b, ctx_.bvor(ctx_.shl(a, inv), ctx_.lshr(b, sh)));
      break;
    }
    case Special::SAddO:
    case Special::UAddO:
    case Special::SSubO:
    case Special::USubO:
    case Special::SMulO:
    case Special::UMulO: {
      Special k = Special(site.callee);
      bool isSigned = k == Special::SAddO || k == Special::SSubO || k == Special::SMulO;
      Kind op = (k == Special::SAddO || k == Special::UAddO) ? Kind::Add
                : (k == Special::SSubO || k == Special::USubO) ? Kind::Sub : Kind::Mul;
      ExprRef result = ctx_.build(op, std::array{x(0), x(1)});
      ExprRef overflow = overflowFlag(ctx_, op, isSigned, x(0), x(1));
      if (in.width == w) { // a register pair (Program.h): the flag goes to the next register
        returnValue(s, in, Value(result));
        s.top().regs[in.dst + 1] = Value(overflow);
        return true;
      }
      r = ctx_.concat(ctx_.zext(overflow, in.width - w), result);
      break;
    }
    case Special::VaStart: {
      // x86-64 va_list: gp_offset, fp_offset, overflow_arg_area, reg_save_area. Every
      // register is marked used, so va_arg reads from our overflow area.
      Frame &f = s.top();
      Value list = args[0];
      uint64_t area = f.varargs;
      resolve(s, list, 24, true, [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &off) {
        if (!off.concrete())
          return;
        ObjectState &os = st.memory.writable(e.object->address);
        uint64_t o = uint64_t(off.bits);
        os.write(ctx_, o, Value(u128(48)), 4);
        os.write(ctx_, o + 4, Value(u128(304)), 4);
        os.write(ctx_, o + 8, Value(u128(area)), 8);
        os.write(ctx_, o + 16, Value(u128(0)), 8);
      });
      return true;
    }
    case Special::VaCopy: {
      Value count(u128(24));
      copyMemory(s, args[0], args[1], count, 64);
      return true;
    }
    default: return false;
    }
    returnValue(s, in, Value(r));
    return true;
  }

  void reallocate(ExecutionState &s, const Instr &in, const CallSite &, std::vector<Value> &args) {
    std::optional<u128> old = concretize(s, args[0], 64, true);
    if (!old)
      return;
    allocateSized(s, args[1], ObjectKind::Heap, "heap object", in.loc, [&](ExecutionState &st, uint64_t fresh) {
      moveContents(st, in, uint64_t(*old), fresh);
    });
  }

  // realloc's second half: the old object's bytes that fit go to the new one, which replaces it.
  // Symbolic-size objects copy up to the smaller capacity: bytes past either size are never read.
  void moveContents(ExecutionState &s, const Instr &in, uint64_t old, uint64_t fresh) {
    if (!fresh)
      return returnValue(s, in, Value(u128(0)));
    if (old) {
      std::optional<uint64_t> size = heapObjectSize(s, old);
      if (!size)
        return reportError(s, makeError(s, "free", "invalid-free", "realloc of a pointer that is not a heap object"));
      uint64_t keep = std::min<uint64_t>(*size, s.memory.findBase(fresh)->object->size);
      for (uint64_t i = 0; i < keep; ++i) {
        const AddressSpace::Entry *e = s.memory.find(old + i);
        Value b = e->state->read(ctx_, old + i - e->object->address, 1);
        s.memory.writable(fresh).write(ctx_, i, b, 1);
      }
      freeObject(s, Value(u128(old)));
    }
    returnValue(s, in, pointerTo(s, fresh));
  }

  // The size of the live heap object starting at `a`: a whole object, a member of a segment or
  // an object split into chunks.
  std::optional<uint64_t> heapObjectSize(const ExecutionState &s, uint64_t a) const {
    const AddressSpace::Entry *e = s.memory.find(a);
    if (!e || e->object->kind != ObjectKind::Heap)
      return std::nullopt;
    const MemoryObject &mo = *e->object;
    if (mo.split)
      return mo.split->address == a ? std::optional<uint64_t>(mo.split->size) : std::nullopt;
    for (const SegmentMember &m : mo.members)
      if (mo.address + m.offset == a && !m.freed)
        return m.size;
    if (!mo.members.empty() || mo.address != a)
      return std::nullopt;
    return mo.size;
  }

  void freeObject(ExecutionState &s, const Value &p) {
    std::optional<u128> a = concretize(s, p, 64, true);
    if (!a || *a == 0)
      return;
    if (const AddressSpace::Entry *in = s.memory.find(uint64_t(*a)); in && (in->object->split || !in->object->members.empty()))
      return freeMoved(s, *in, uint64_t(*a));
    const AddressSpace::Entry *e = s.memory.findBase(uint64_t(*a));
    if (!e) {
      for (const auto &[base, size] : s.freed)
        if (base == uint64_t(*a))
          return reportError(s, makeError(s, "free", "double-free", "memory error: double free"));
      return reportError(s, makeError(s, "free", "invalid-free", "memory error: invalid free"));
    }
    if (e->object->kind != ObjectKind::Heap)
      return reportError(s, makeError(s, "free", "invalid-free", "free of " + e->object->name));
    s.freed.emplace_back(e->object->address, e->object->size);
    s.memory.unbind(e->object->address);
  }

  // free() of an object that moved: a split object goes with all its chunks; a segment member
  // is marked freed, and the segment goes with its last member.
  void freeMoved(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a) {
    const MemoryObject &mo = *e.object;
    if (mo.split) {
      if (mo.split->address != a)
        return reportError(s, makeError(s, "free", "invalid-free", "memory error: invalid free"));
      std::shared_ptr<const SplitOrigin> origin = mo.split;
      for (uint64_t off = 0; off < origin->size; off += origin->chunkSize)
        s.memory.unbind(origin->address + off);
      s.freed.emplace_back(origin->address, origin->size);
      return;
    }
    auto updated = std::make_shared<MemoryObject>(mo);
    bool anyLive = false, found = false;
    for (SegmentMember &m : updated->members) {
      if (mo.address + m.offset == a) {
        if (m.freed)
          return reportError(s, makeError(s, "free", "double-free", "memory error: double free"));
        m.freed = found = true;
        s.freed.emplace_back(a, m.size);
      }
      anyLive |= !m.freed;
    }
    if (!found)
      return reportError(s, makeError(s, "free", "invalid-free", "memory error: invalid free"));
    if (anyLive)
      s.memory.bind(std::move(updated), e.state);
    else
      s.memory.unbind(mo.address);
  }

  void copyMemory(ExecutionState &s, const Value &dstPtr, const Value &srcPtr, const Value &count,
                  unsigned w) {
    std::optional<u128> n = concretize(s, count, w, true);
    std::optional<Value> dst = n ? fixPointer(s, dstPtr) : std::nullopt;
    std::optional<Value> src = dst ? fixPointer(s, srcPtr) : std::nullopt;
    if (!src)
      return;
    std::vector<Value> bytes(static_cast<size_t>(*n)); // read all first: the ranges may overlap (memmove)
    for (u128 i = 0; i < *n; ++i)
      if (!loadByte(s, offsetBy(*src, uint64_t(i)), bytes[size_t(i)]))
        return;
    for (u128 i = 0; i < *n; ++i)
      if (!storeByte(s, offsetBy(*dst, uint64_t(i)), bytes[size_t(i)]))
        return;
  }

  void setMemory(ExecutionState &s, const Value &dstPtr, const Value &value, const Value &count,
                 unsigned w) {
    std::optional<u128> n = concretize(s, count, w, true);
    std::optional<Value> dst = n ? fixPointer(s, dstPtr) : std::nullopt;
    if (!dst)
      return;
    Value byte = value.concrete() ? Value(value.bits & 0xff) : Value(ctx_.extract(value.sym, 0, 8));
    for (u128 i = 0; i < *n; ++i)
      if (!storeByte(s, offsetBy(*dst, uint64_t(i)), byte))
        return;
  }

  // One byte at `address` of `s`, checked like any access. The bulk operations below fix their
  // pointers to one value first, so the access cannot fork; false when the state ended.
  bool loadByte(ExecutionState &s, const Value &address, Value &out) {
    bool done = false;
    resolve(s, address, 1, false, [&](ExecutionState &, const AddressSpace::Entry &e, const Value &off) {
      out = readAt(e, off, 1);
      done = true;
    });
    return done && !isTerminated(&s);
  }

  bool storeByte(ExecutionState &s, const Value &address, const Value &byte) {
    bool done = false;
    resolve(s, address, 1, true, [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &off) {
      writeAt(st, e, off, byte, 1);
      done = true;
    });
    return done && !isTerminated(&s);
  }

  // A pointer fixed to one of its values (constrained to it), for the bulk memory operations.
  std::optional<Value> fixPointer(ExecutionState &s, const Value &p) {
    std::optional<u128> v = concretize(s, p, 64, true);
    return v ? std::optional<Value>(Value(*v)) : std::nullopt;
  }

  Value offsetBy(const Value &p, uint64_t k) {
    if (p.concrete())
      return Value((p.bits + k) & widthMask(64));
    return Value(ctx_.add(ctx_.constant(k, 64), p.sym));
  }

  void printf(ExecutionState &s, const Instr &in, std::vector<Value> &args) {
    std::optional<std::string> out = format(s, args, 0);
    if (!out)
      return;
    s.output += *out;
    returnValue(s, in, Value(u128(out->size())));
  }

  // sprintf / snprintf: the formatted text, NUL-terminated, written through the memory checks.
  void sprintf(ExecutionState &s, const Instr &in, std::vector<Value> &args, bool bounded) {
    std::optional<std::string> text = format(s, args, bounded ? 2 : 1);
    if (!text)
      return;
    size_t room = text->size() + 1;
    if (bounded) {
      std::optional<u128> n = concretize(s, args[1], 64, true);
      if (!n)
        return;
      room = std::min<size_t>(room, size_t(*n));
    }
    std::optional<Value> dst = fixPointer(s, args[0]);
    if (!dst)
      return;
    for (size_t i = 0; i < room; ++i) {
      uint8_t c = i + 1 == room ? 0 : uint8_t((*text)[i]);
      if (!storeByte(s, offsetBy(*dst, i), Value(u128(c))))
        return;
    }
    returnValue(s, in, Value(u128(text->size())));
  }

  // printf-style formatting of concrete arguments (symbolic ones print one possible value).
  // `fmtIndex` is the format's argument position.
  std::optional<std::string> format(ExecutionState &s, std::vector<Value> &args, size_t fmtIndex) {
    std::string fmt = readString(s, args[fmtIndex]);
    std::string out;
    size_t next = fmtIndex + 1;
    for (size_t i = 0; i < fmt.size(); ++i) {
      if (fmt[i] != '%') {
        out.push_back(fmt[i]);
        continue;
      }
      size_t j = i + 1;
      while (j < fmt.size() && std::strchr("-+ #0123456789.lhzjt", fmt[j]))
        ++j;
      if (j >= fmt.size())
        break;
      char conv = fmt[j];
      std::string spec = fmt.substr(i, j - i + 1);
      i = j;
      if (conv == '%') {
        out.push_back('%');
        continue;
      }
      if (next >= args.size())
        break;
      const Value &v = args[next++];
      if (conv == 's') {
        out += readString(s, v);
        continue;
      }
      std::optional<u128> c = v.concrete() ? std::optional<u128>(v.bits) : concretize(s, v, 64, false);
      if (!c)
        return std::nullopt;
      char buf[128];
      bool isLong = spec.find('l') != std::string::npos || spec.find('z') != std::string::npos;
      std::string cspec = spec;
      switch (conv) {
      case 'd':
      case 'i':
        if (isLong)
          std::snprintf(buf, sizeof buf, "%lld", (long long)int64_t(uint64_t(*c)));
        else
          std::snprintf(buf, sizeof buf, "%d", int32_t(uint32_t(*c)));
        break;
      case 'u': std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)(isLong ? uint64_t(*c) : uint32_t(*c))); break;
      case 'x': std::snprintf(buf, sizeof buf, "%llx", (unsigned long long)(isLong ? uint64_t(*c) : uint32_t(*c))); break;
      case 'X': std::snprintf(buf, sizeof buf, "%llX", (unsigned long long)(isLong ? uint64_t(*c) : uint32_t(*c))); break;
      case 'c': std::snprintf(buf, sizeof buf, "%c", char(*c)); break;
      case 'p': std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)uint64_t(*c)); break;
      default: std::snprintf(buf, sizeof buf, "%s", spec.c_str()); break;
      }
      out += buf;
    }
    return out;
  }

  // --- Results -----------------------------------------------------------------------------

  RunStatistics finish() {
    stats_.wallSeconds = seconds();
    stats_.linesTotal = program_.coverableLines;
    stats_.linesCovered = covered_.size();
    stats_.coveredLines.assign(covered_.begin(), covered_.end());
    std::sort(stats_.coveredLines.begin(), stats_.coveredLines.end());
    solver_->collectStats(stats_.solverLayers);
    if (!stats_.solverLayers.empty()) {
      stats_.solverQueries = stats_.solverLayers.back().queries;
      stats_.solverSeconds = stats_.solverLayers.back().seconds;
    }
    return stats_;
  }

  const Program &program_;
  ExecutorOptions options_;
  ResultSink &sink_;
  ExprContext ctx_; // before the solver, whose caches hold its expressions
  std::unique_ptr<Solver> solver_;
  bool layoutQuestion_ = false; // the question being asked depends on the layout
  std::map<std::pair<std::string, uint64_t>, const SymbolDecl *> inputArrays_; // by name and size
  std::unique_ptr<Searcher> searcher_;
  std::vector<PathPrefix> starts_;      // the run's start prefixes, sorted
  std::unique_ptr<ExecutionState> entry_; // the entry state, for a start prefix rebuilt alone
  std::map<uint64_t, std::unique_ptr<ExecutionState>> states_; // by id: creation order
  std::unordered_set<ExecutionState *> terminated_;
  std::set<std::string> reportedErrors_;
  std::unordered_set<uint64_t> covered_;   // (file, line) of user code executed
  std::vector<bool> locationSeen_;
  RunStatistics stats_;
  Clock::time_point start_;
  std::string limitReason_;
  uint64_t nextStateId_ = 1;
  uint64_t nextObjectId_ = 1;
  uint32_t currentLoc_ = 0;
  uint64_t currentInstr_ = 0; // (function, instruction index) of the instruction being run
  // Relocatable model.
  // Where each base was allocated, by its symbol's id: looked up for every pointer a query or
  // a resolution substitutes.
  std::vector<uint64_t> homeAddressById_;
  AddressSubstitution homeSubstitution_;                         // for states with nothing moved
  std::vector<std::pair<uint64_t, std::unique_ptr<AddressSubstitution>>> movedSubstitutions_;
  uint64_t nextBaseId_ = 0;
  std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, ExprRef>>> basesByAddress_; // by size
  uint64_t nextBindingsVersion_ = 0;
  std::map<std::string, ExprRef> segmentsByKey_; // access and objects -> the segment's base
  std::unordered_map<const SymbolDecl *, std::vector<ExprRef>> chunkBases_; // by the split object's base
  std::unordered_map<uint64_t, std::set<uint64_t>> contextsAt_; // access -> allocation contexts resolved there
  unsigned resolutionDepth_ = 0;
  std::set<std::vector<uint64_t>> excluded_; // ExecutorOptions::excluded
  std::atomic<size_t> splitRequested_{0};
  std::atomic<size_t> live_{0};
  uint64_t lastCheck_ = 0;
  uint64_t limitChecks_ = 0;
  // State merging.
  std::vector<std::shared_ptr<MergeContext>> pendingMerges_; // every state arrived or ended
  bool paused_ = false;          // the running state began to wait at a merge point
  bool warnedUnmatchedClose_ = false;
  static constexpr unsigned kSlice = 64;
};

Executor::Executor(const Program &program, ExecutorOptions options, ResultSink &sink)
    : impl_(std::make_unique<Impl>(program, std::move(options), sink)) {}
Executor::~Executor() = default;
RunStatistics Executor::run() { return impl_->run(); }
void Executor::requestSplit(size_t count) { impl_->requestSplit(count); }
size_t Executor::liveStates() const { return impl_->liveStates(); }

uint64_t RunStatistics::addressCacheMismatches() const {
  uint64_t n = 0;
  for (const SolverLayerStats &l : solverLayers)
    for (const auto &[name, value] : l.counters)
      if (name == "mismatches")
        n += value;
  return n;
}

} // namespace cairn::engine
