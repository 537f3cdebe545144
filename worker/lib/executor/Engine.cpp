#include "executor/Engine.h"

#include "cairn/expr/Assignment.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cairn::engine {

namespace {
constexpr uint64_t kHeapBase = 0x2000'0000;
// Instructions a state runs before the searcher picks again, unless it forks or ends first.
constexpr unsigned kSlice = 64;
// States handed over by one split: they travel in one message.
constexpr size_t kMaxSplitStates = 4096;
} // namespace

Engine::Engine(const Program &program, ExecutorOptions options, ResultSink &sink)
    : program(program), options(std::move(options)), solver(createSolverChain(this->options.solver)),
      model(this->options.memory.relocatable() ? createRelocatableModel(*this) : createStandardModel()),
      replay(*this), questions(*this), memory(*this, *model), sizes(*this), merging(*this), qceMerging(*this),
      specials(*this), interpreter(*this), sink_(sink),
      searcher_(qceMerging.wrap(createSearcher(this->options.search, this->options.seed))) {
  const SizeModelOptions &sizeModel = this->options.sizeModel;
  if (sizeModel.symbolic())
    stats.sizeBound = SizeBoundStats{sizeModel.capacity, sizeModel.capacity, 0};
}

Engine::~Engine() = default;

RunStatistics Engine::run() {
  start_ = Clock::now();
  auto initial = std::make_unique<ExecutionState>();
  initial->id = nextStateId_++;
  initial->nextAddress = kHeapBase;
  model->initialize(*initial);
  setUpGlobals(*initial);
  setUpEntry(*initial);
  replay.begin(*initial, options.starts, options.excluded);
  searcher_->add(initial.get());
  states_.emplace(initial->id, std::move(initial));
  if (options.maxMemoryMB) {
    memoryCeiling_ = std::make_unique<MemoryCeiling>(options.maxMemoryMB);
    stats.memoryLimit.limitMB = options.maxMemoryMB;
    stats.memoryLimit.ceilingMB = memoryCeiling_->ceilingMB();
  }
  if (options.stopRequested || memoryCeiling_)
    stopRelay_ = std::make_unique<StopRelay>(options.stopRequested, memoryCeiling_.get(), *solver);

  auto nextReport = start_;
  while (!searcher_->empty()) {
    ExecutionState &s = searcher_->select();
    if (limitReached())
      break;
    if (s.prefix.excluded) {
      dropState(s);
      reapTerminated();
      continue;
    }
    runSlice(s);
    replay.checkParted(s);
    reapTerminated();
    merging.completePending();
    qceMerging.settleForked();
    reapTerminated();
    if (size_t n = splitRequested_.exchange(0, std::memory_order_relaxed); n && !splitFrontier(n)) {
      size_t none = 0; // unless a newer request came meanwhile, this one waits for more states
      splitRequested_.compare_exchange_strong(none, n, std::memory_order_relaxed);
    }
    live_.store(states_.size(), std::memory_order_relaxed);
    if ((stats.instructions & ~uint64_t(0xffff)) != lastCheck_) {
      lastCheck_ = stats.instructions & ~uint64_t(0xffff);
      checkMemory();
      if (options.onProgress && Clock::now() >= nextReport) {
        nextReport = Clock::now() + std::chrono::milliseconds(500);
        stats.wallSeconds = secondsSoFar();
        stats.linesCovered = interpreter.coveredLines().size();
        stats.linesTotal = program.coverableLines;
        options.onProgress(stats, states_.size());
      }
    }
  }
  // Limits end the remaining states as partial paths, each with its test.
  for (auto &[id, s] : states_)
    if (!isTerminated(s.get()))
      terminate(*s, Termination::partialPath(limitReason_));
  reapTerminated();
  if (testsCutByWindDown_)
    spdlog::warn("{} partial paths have no test: the solver could not give their inputs within {:.0f} s of the "
                 "run's end ({})",
                 testsCutByWindDown_, kWindDownSeconds, limitReason_);
  live_.store(0, std::memory_order_relaxed);
  stopRelay_.reset();
  memoryCeiling_.reset();
  return finish();
}

// A state runs on until it forks or ends (or a slice is used up): no pick per instruction.
// The interpreter's concrete runs change none of what is checked here; only the instruction
// that ends a run (one taking the general path) can, so the checks come once per run.
void Engine::runSlice(ExecutionState &s) {
  const uint64_t forksBefore = stats.forks;
  paused = false;
  // Replay's time is that of the slices spent rebuilding start states (clocked only then), and
  // replayed instructions are counted apart: a rebuilding state takes one step at a time.
  const bool rebuilding = s.instructions < s.prefix.replayInstructions;
  const Clock::time_point sliceStart = rebuilding ? Clock::now() : Clock::time_point{};
  for (uint64_t slice = 0; slice < kSlice && stats.forks == forksBefore && terminated_.empty() && !paused &&
                           !s.prefix.excluded && (!rebuilding || s.instructions < s.prefix.replayInstructions);)
    try {
      uint64_t budget = kSlice - slice;
      if (options.maxInstructions) {
        if (stats.instructions >= options.maxInstructions)
          break;
        budget = std::min(budget, options.maxInstructions - stats.instructions);
      }
      if (rebuilding) {
        interpreter.step(s);
        ++slice;
      } else {
        slice += interpreter.run(s, budget);
      }
    } catch (const MalformedExpr &bug) {
      // An engine bug on this path: it ends as partial (what it found so far is kept, and no
      // claim is made past this point) and the run goes on with the others.
      spdlog::error("{} (at {}); the path ends here", bug.what(), where(currentLoc));
      terminate(s, Termination::partialPath(std::string("engine error: ") + bug.what()));
      break;
    }
  if (rebuilding)
    stats.replaySeconds += std::chrono::duration<double>(Clock::now() - sliceStart).count();
}

void Engine::reapTerminated() {
  if (terminated_.empty())
    return;
  // In the order of the states' ids, not the set's, which follows their addresses: a searcher
  // that keeps its states in a vector (random-state) places the others by the order of removals,
  // and the same run must pick the same states each time.
  std::vector<ExecutionState *> ended(terminated_.begin(), terminated_.end());
  std::sort(ended.begin(), ended.end(), [](const ExecutionState *a, const ExecutionState *b) { return a->id < b->id; });
  for (ExecutionState *s : ended) {
    searcher_->remove(s);
    states_.erase(s->id);
  }
  terminated_.clear();
}

// Hands states to onSplit, those nearest the entry first: at least `count`, and more until
// they hold about half of the work, a state's share taken as halving with each fork deeper
// (one state under depth-first search, where the shallowest holds half of what is left; half
// of the states on a breadth-first frontier, whose states are alike). Keeps at least one;
// false, without answering, while there are fewer than two to choose from.
bool Engine::splitFrontier(size_t count) {
  std::vector<PathPrefix> out;
  std::vector<ExecutionState *> candidates;
  for (auto &[id, st] : states_)
    if (!isTerminated(st.get()) && !replay.rebuilding(*st) && !st->prefix.excluded && !st->merged &&
        st->merges.empty()) // a merge context's states wait for each other here
      candidates.push_back(st.get());
  if (candidates.size() < 2)
    return false;
  std::stable_sort(candidates.begin(), candidates.end(), [](const ExecutionState *a, const ExecutionState *b) {
    return a->depth < b->depth || (a->depth == b->depth && a->prefix.choices.size() < b->prefix.choices.size());
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
    out.push_back(PathPrefix{st.prefix.choices, st.instructions});
    dropState(st);
  }
  reapTerminated();
  if (options.onSplit)
    options.onSplit(std::move(out));
  return true;
}

ExecutionState &Engine::copyState(ExecutionState &s) {
  auto child = std::make_unique<ExecutionState>(s);
  child->id = nextStateId_++;
  child->coveredNew = false; // one test stands for what the two paths covered before the fork
  ExecutionState &ref = *child;
  states_.emplace(ref.id, std::move(child));
  searcher_->forked(&s, &ref);
  return ref;
}

ExecutionState &Engine::adopt(std::unique_ptr<ExecutionState> s) {
  s->id = nextStateId_++;
  ExecutionState &ref = *s;
  searcher_->add(&ref);
  states_.emplace(ref.id, std::move(s));
  return ref;
}

void Engine::addConstraint(ExecutionState &s, const ExprRef &c) {
  if (c->isTrue())
    return;
  s.constraints.push_back(c);
  merging.constrained(s, c);
}

Engine::Sides Engine::branch(ExecutionState &s, const ExprRef &cond, bool aboutLayout) {
  Sides sides = forkOn(s, cond, aboutLayout);
  if (aboutLayout)
    for (ExecutionState *t : {sides.first, sides.second})
      if (t)
        model->tookLayoutBranch(*t);
  return sides;
}

Engine::Sides Engine::forkOn(ExecutionState &s, const ExprRef &cond, bool aboutLayout) {
  if (cond->isConstant())
    return cond->isTrue() ? Sides{&s, nullptr} : Sides{nullptr, &s};
  std::optional<Validity> v = questions.decide(s, cond, aboutLayout);
  if (!v)
    return {nullptr, nullptr};
  if (*v == Validity::True || *v == Validity::False)
    merging.decided(s, *v == Validity::True ? cond : ctx.lnot(cond));
  if (*v == Validity::True)
    return {&s, nullptr};
  if (*v == Validity::False)
    return {nullptr, &s};
  if (replay.replaying(s)) // the prefix names this path's side; the other is another item's
    return replayBranch(s, cond);
  if (!s.forking || (options.maxForks && stats.forks >= options.maxForks)) {
    addConstraint(s, cond); // klee_set_forking(0), or past the fork limit: follow one side
    replay.record(s, PrefixReplay::kFollowedWithoutFork);
    return {&s, nullptr};
  }
  if (options.maxDepth && s.depth >= options.maxDepth) {
    terminate(s, Termination::partialPath("depth limit reached"));
    return {nullptr, nullptr};
  }
  merging.beforeFork(s, cond);
  ++stats.forks;
  ExecutionState &other = copyState(s);
  pushConstraint(s, cond);
  pushConstraint(other, ctx.lnot(cond));
  merging.forked(s, other, cond);
  s.decisions.push_back(1);
  other.decisions.push_back(0);
  replay.record(s, 1);
  replay.record(other, 0);
  ++s.depth;
  ++other.depth;
  return {&s, &other};
}

Engine::Sides Engine::replayBranch(ExecutionState &s, const ExprRef &cond) {
  if (ExecutionState *other = replay.startsOnTheOtherSide(s)) { // or another start's, here too
    ExecutionState &t = s.prefix.choices[s.prefix.replayed++] ? s : *other;
    ExecutionState &f = &t == &s ? *other : s;
    ++other->prefix.replayed;
    pushConstraint(t, cond);
    pushConstraint(f, ctx.lnot(cond));
    t.decisions.push_back(1);
    f.decisions.push_back(0);
    ++t.depth;
    ++f.depth;
    return {&t, &f};
  }
  uint64_t side = replay.next(s);
  if (side == PrefixReplay::kFollowedWithoutFork) {
    addConstraint(s, cond);
    return {&s, nullptr};
  }
  addConstraint(s, side ? cond : ctx.lnot(cond));
  s.decisions.push_back(uint8_t(side));
  ++s.depth;
  return side ? Sides{&s, nullptr} : Sides{nullptr, &s};
}

std::string Engine::where(uint32_t locId) const {
  const SourceLocation &l = program.locations[locId];
  if (!l.line)
    return "unknown location";
  return program.files[l.file] + ":" + std::to_string(l.line);
}

std::vector<std::string> Engine::stackTrace(const ExecutionState &s) const {
  std::vector<std::string> trace;
  uint32_t here = currentLoc;
  for (size_t i = s.stack.size(); i-- > 0;) {
    trace.push_back(program.functions[s.stack[i].function].name + " at " + where(here));
    here = s.stack[i].callLoc;
  }
  return trace;
}

ErrorReport Engine::makeError(const ExecutionState &s, std::string type, std::string kind, std::string message) const {
  ErrorReport e{std::move(type), std::move(kind), std::move(message), {}, 0, stackTrace(s)};
  uint32_t here = currentLoc;
  for (size_t i = s.stack.size(); i-- > 0;) {
    const Frame &f = s.stack[i];
    const Function &fn = program.functions[f.function];
    const SourceLocation &l = program.locations[here];
    if (!e.line && !fn.isRuntime && l.line) {
      e.file = program.files[l.file];
      e.line = l.line;
    }
    here = f.callLoc;
  }
  return e;
}

void Engine::terminate(ExecutionState &s, Termination t) {
  if (isTerminated(&s))
    return;
  if (s.prefix.excluded)
    return dropState(s);
  if (t.error && spurious.intercept(s, t))
    return;
  terminated_.insert(&s);
  merging.leave(s);
  stats.merging.multiplicity = addPaths(stats.merging.multiplicity, s.multiplicity);
  if (t.partial)
    ++stats.pathsPartial;
  else
    ++stats.pathsCompleted;
  if (t.error) {
    std::string key = t.error->file + ":" + std::to_string(t.error->line) + ":" + t.error->type + ":" + t.error->kind;
    if (!reportedErrors_.insert(key).second)
      return; // one test per error location, as KLEE does
  }
  if (!t.writeTest || (options.onlyNewCoverageTests && !t.error && !s.coveredNew))
    return;
  TestCase test;
  std::vector<ExprRef> arrays;
  for (const SymbolicInput &in : s.inputs)
    arrays.push_back(ctx.symbol(in.array));
  Answer<Assignment> values = questions.inputs(s, arrays);
  if (!values.known()) {
    if (windDownLeft() && !t.error) {
      ++testsCutByWindDown_; // one message for all of them, at the end
      return;
    }
    spdlog::warn("no test for a path: the solver gave no model ({})", values.reason);
    if (t.error) // the error still counts, without inputs
      stats.errors.push_back(*t.error);
    return;
  }
  for (const SymbolicInput &in : s.inputs) {
    std::vector<uint8_t> bytes(in.size);
    for (uint64_t i = 0; i < in.size; ++i)
      bytes[i] = uint8_t(values->element(in.array, i));
    test.objects.emplace_back(in.name, std::move(bytes));
  }
  test.error = t.error;
  test.partial = t.partial;
  test.endReason = t.reason;
  test.path = s.decisions;
  test.output = s.output;
  test.errorOutput = s.errorOutput;
  for (const ExecutionState::OutputByte &b : s.symbolicOutput)
    (b.stream == 2 ? test.errorOutput : test.output)[b.position] = char(evaluate(b.byte.get(), *values));
  if (s.exitStatus)
    test.exitStatus = int(s.exitStatus->concrete() ? uint64_t(s.exitStatus->bits)
                                                   : uint64_t(evaluate(s.exitStatus->sym.get(), *values)));
  test.recordsOutput = options.posix.libc == LibcKind::Full;
  if (t.error)
    stats.errors.push_back(*t.error);
  ++stats.tests;
  sink_.onTest(test);
}

void Engine::setUpGlobals(ExecutionState &s) {
  for (const GlobalObject &g : program.globals) {
    if (!g.unsupported.empty())
      continue; // an access finds no object there, and says why (MemoryAccess::memoryError)
    auto mo = std::make_shared<MemoryObject>();
    mo->id = nextObjectId++;
    mo->address = g.address;
    mo->size = g.size;
    mo->kind = ObjectKind::Global;
    mo->readOnly = g.readOnly;
    mo->name = g.name;
    s.memory.bind(mo, std::make_shared<ObjectState>(g.size, g.bytes.data()));
  }
}

void Engine::setUpEntry(ExecutionState &s) {
  const Function &entry = program.functions[program.entry];
  Frame f;
  f.function = program.entry;
  f.regs.resize(entry.numRegs);
  StackUsage::add(s, f, interpreter.stackUsage().frameBytes(program.entry));
  interpreter.enterBlock(f, 0, ~0u);
  s.stack.push_back(std::move(f));
  // main(argc, argv), or the POSIX model's start: the program arguments, concretely.
  const bool posixStart = entry.name == kPosixStart;
  if (entry.numParams >= 2) {
    std::vector<std::string> args = {posixStart && !options.posix.programName.empty() ? options.posix.programName
                                                                                       : entry.name};
    args.insert(args.end(), options.programArgs.begin(), options.programArgs.end());
    s.top().regs[0] = Value(u128(args.size()));
    s.top().regs[1] = Value(u128(stringArray(s, args, "argv")));
  }
  // main(argc, argv, envp): the environment, as a native run has one. Another entry function's
  // parameters past argv stay zero, as the replay calls it.
  if (entry.numParams >= 3 && (entry.name == "main" || posixStart))
    s.top().regs[2] = Value(u128(stringArray(s, options.environment, "envp")));
  // Constructors run first: their frames go on top of the entry's, the first one last.
  for (size_t i = program.constructors.size(); i-- > 0;) {
    const Function &ctor = program.functions[program.constructors[i]];
    if (ctor.declarationOnly)
      continue;
    Frame c;
    c.function = program.constructors[i];
    c.regs.resize(ctor.numRegs);
    StackUsage::add(s, c, interpreter.stackUsage().frameBytes(program.constructors[i]));
    interpreter.enterBlock(c, 0, ~0u);
    s.stack.push_back(std::move(c));
  }
}

// A NULL-terminated array of strings in memory of its own, as a program's argv and envp are.
uint64_t Engine::stringArray(ExecutionState &s, const std::vector<std::string> &strings, const std::string &name) {
  uint64_t array = memory.allocate(s, (strings.size() + 1) * 8, ObjectKind::Argument, name, 0);
  for (size_t i = 0; i < strings.size(); ++i) {
    uint64_t str = memory.allocate(s, strings[i].size() + 1, ObjectKind::Argument, name + "[" + std::to_string(i) + "]", 0);
    ObjectState &os = s.memory.writable(str);
    for (size_t k = 0; k < strings[i].size(); ++k)
      os.write(ctx, k, Value(u128(uint8_t(strings[i][k]))), 1);
    s.memory.writable(array).write(ctx, i * 8, Value(u128(str)), 8);
  }
  return array;
}

bool Engine::limitReached() {
  if (!limitReason_.empty())
    return true;
  if (options.stopRequested && *options.stopRequested)
    limitReason_ = "interrupted";
  else if (memoryCeiling_ && memoryCeiling_->reached()) {
    limitReason_ = "memory limit reached: the run's heap passed " + std::to_string(memoryCeiling_->ceilingMB()) +
                   " MB (--max-memory " + std::to_string(options.maxMemoryMB) + " and its margin)";
    stats.memoryLimit.runsStopped = 1;
  }
  else if (options.maxInstructions && stats.instructions >= options.maxInstructions)
    limitReason_ = "instruction limit reached";
  else if (options.maxTimeSeconds > 0 && ++limitChecks_ % 64 == 0 && secondsSoFar() >= options.maxTimeSeconds)
    limitReason_ = "time limit reached";
  if (limitReason_.empty())
    return false;
  limitAt_ = Clock::now();
  if (stopRelay_)
    stopRelay_->acknowledge();
  return true;
}

std::optional<double> Engine::windDownLeft() const {
  if (limitReason_.empty())
    return std::nullopt;
  return kWindDownSeconds - std::chrono::duration<double>(Clock::now() - limitAt_).count();
}

// Over the memory limit, half of the states end as partial paths (each with its test), the
// newest first: they have done the least work.
void Engine::checkMemory() {
  if (!options.maxMemoryMB)
    return;
  if (states_.size() < 2)
    return;
  std::optional<uint64_t> over = memoryGauge_.overLimit(options.maxMemoryMB);
  if (!over)
    return;
  const uint64_t usedMB = *over;
  spdlog::warn("memory {} MB over the {} MB limit: ending {} states", usedMB, options.maxMemoryMB, states_.size() / 2);
  size_t drop = states_.size() / 2;
  stats.memoryLimit.statesEnded += drop;
  for (auto it = states_.rbegin(); it != states_.rend() && drop; ++it, --drop)
    terminate(*it->second, Termination::partialPath("memory limit reached"));
  reapTerminated();
}

RunStatistics Engine::finish() {
  stats.wallSeconds = secondsSoFar();
  stats.linesTotal = program.coverableLines;
  const auto &covered = interpreter.coveredLines();
  stats.linesCovered = covered.size();
  stats.coveredLines.assign(covered.begin(), covered.end());
  std::sort(stats.coveredLines.begin(), stats.coveredLines.end());
  stats.branchesTaken = interpreter.branchesTaken();
  stats.files.clear();
  std::map<uint32_t, RunStatistics::FileCoverage> perFile;
  for (uint64_t key : program.coverableLineKeys)
    ++perFile[uint32_t(key >> 32)].total;
  for (uint64_t key : stats.coveredLines)
    if (auto it = perFile.find(uint32_t(key >> 32)); it != perFile.end())
      ++it->second.covered;
  for (auto &[file, c] : perFile) {
    c.file = program.files[file];
    stats.files.push_back(std::move(c));
  }
  if (program.transform) { // the pass ran: its counts came with the module
    BranchTransformStats &t = stats.transform.emplace(*program.transform);
    t.spuriousErrorsFiltered = spurious.filtered();
    t.spuriousLocations.assign(spurious.locations().begin(), spurious.locations().end());
  }
  solver->collectStats(stats.solverLayers);
  for (const SolverLayerStats &l : stats.solverLayers) // --validate-merges: one count of what it refuted
    for (const auto &[name, value] : l.counters)
      if (l.layer == "quantified" && name == "mismatches")
        stats.merging.mismatches += value;
  if (!stats.solverLayers.empty()) {
    // What reached the core: the last layer, or the two cores that follow the float router.
    auto router = std::find_if(stats.solverLayers.begin(), stats.solverLayers.end(),
                               [](const SolverLayerStats &l) { return l.layer == "float-routing"; });
    auto cores = router != stats.solverLayers.end() ? router + 1 : stats.solverLayers.end() - 1;
    for (auto l = cores; l != stats.solverLayers.end(); ++l) {
      stats.solverQueries += l->queries;
      stats.solverSeconds += l->seconds;
    }
  }
  return stats;
}

} // namespace cairn::engine
