// The engine of one run: the set of live states, the run loop that picks and steps them,
// forking, and termination. The other concerns are units it owns, each in its own folder:
// the interpreter (interpreter/), memory access and the memory models (memory/), state merging
// (merging/), the replay of start prefixes and the solver's questions (here).
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Executor.h"
#include "executor/MemoryCeiling.h"
#include "executor/MemoryGauge.h"
#include "executor/PrefixReplay.h"
#include "executor/SolverQuestions.h"
#include "executor/SpuriousErrors.h"
#include "executor/StopRelay.h"
#include "interpreter/Interpreter.h"
#include "interpreter/SpecialFunctions.h"
#include "memory/MemoryAccess.h"
#include "memory/MemoryModel.h"
#include "memory/SizePolicy.h"
#include "merging/MergeCoordinator.h"
#include "merging/QceMerging.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>

namespace cairn::engine {

// Why a path ended, when it did not end normally.
struct Termination {
  std::optional<ErrorReport> error;
  bool partial = false;
  bool writeTest = true;
  std::string reason;

  // Cut short (a limit, a solver failure): a partial path with its test.
  static Termination partialPath(std::string why) { return {std::nullopt, true, true, std::move(why)}; }
  // The program ended (returned from its entry, or exited), with an error found then or none.
  static Termination programEnd(std::optional<ErrorReport> error) { return {std::move(error), false, true, {}}; }
};

class Engine {
public:
  using Clock = std::chrono::steady_clock;
  // The states where a forked condition holds and where it does not (either may be null).
  using Sides = std::pair<ExecutionState *, ExecutionState *>;

  Engine(const Program &program, ExecutorOptions options, ResultSink &sink);
  ~Engine();
  RunStatistics run();
  void requestSplit(size_t count) { splitRequested_.store(count, std::memory_order_relaxed); }
  size_t liveStates() const { return live_.load(std::memory_order_relaxed); }

  // Forks on `cond`. The original state becomes the true side when both are feasible.
  // `aboutLayout`: the condition asks where objects lie (a pointer leaving the object it was
  // derived from); the address-aware cache answers neither it nor any later question of the
  // states it leads to.
  Sides branch(ExecutionState &s, const ExprRef &cond, bool aboutLayout = false);
  // A new state as `s` is, placed beside it in the searcher (a fork, or a replay parting).
  ExecutionState &copyState(ExecutionState &s);
  // A state built elsewhere joins the run.
  ExecutionState &adopt(std::unique_ptr<ExecutionState> s);
  // A constraint added without a fork: in a merge context, a split whose other side no state
  // takes, so the execution tree stays a picture of the path condition.
  void addConstraint(ExecutionState &s, const ExprRef &c);

  void terminate(ExecutionState &s, Termination t);
  void reportError(ExecutionState &s, ErrorReport e) { terminate(s, Termination{std::move(e), false, true, {}}); }
  // An error at the current instruction (or at the call into the runtime that led to it).
  ErrorReport makeError(const ExecutionState &s, std::string type, std::string kind, std::string message) const;
  void error(ExecutionState &s, std::string type, std::string kind, std::string message) {
    reportError(s, makeError(s, std::move(type), std::move(kind), std::move(message)));
  }
  bool isTerminated(const ExecutionState *s) const { return terminated_.count(const_cast<ExecutionState *>(s)) != 0; }
  // A state leaves without a trace: handed to another engine, explored elsewhere or merged.
  void dropState(ExecutionState &s) { terminated_.insert(&s); }
  // The state of that id, unless it ended or was dropped.
  ExecutionState *liveState(uint64_t id) {
    auto it = states_.find(id);
    return it == states_.end() || isTerminated(it->second.get()) ? nullptr : it->second.get();
  }
  template <class F> void forEachLiveState(F &&f) {
    for (auto &[id, s] : states_)
      if (!isTerminated(s.get()))
        f(*s);
  }
  Searcher &searcher() { return *searcher_; }
  // Seconds since the run began.
  double secondsSoFar() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // Once a limit (time, instructions, a signal) ended the exploration, the remaining states'
  // tests share kWindDownSeconds of solver time: how much of it is left, or nullopt while the
  // run explores. A run stopped by its limit ends soon after it, with every test the solver
  // can still give in that time (a float query can take minutes).
  static constexpr double kWindDownSeconds = 10;
  std::optional<double> windDownLeft() const;
  // "file:line" of a location, for messages.
  std::string where(uint32_t locId) const;
  // The state's call stack, innermost first: "function at file:line" per frame.
  std::vector<std::string> stackTrace(const ExecutionState &s) const;

  // What every unit of the run shares.
  const Program &program;
  const ExecutorOptions options;
  ExprContext ctx; // before the solver, whose caches hold its expressions
  std::unique_ptr<Solver> solver;
  RunStatistics stats;
  uint32_t currentLoc = 0;
  uint64_t currentInstr = 0; // (function, instruction index) of the instruction being run
  uint64_t nextObjectId = 1;
  bool paused = false; // the running state began to wait at a merge point

  // The units, in the order they are built.
  std::unique_ptr<MemoryModel> model;
  PrefixReplay replay;
  SolverQuestions questions;
  MemoryAccess memory;
  SizePolicy sizes;
  MergeCoordinator merging;
  QceMerging qceMerging; // before the searcher, which it wraps
  SpecialFunctions specials;
  Interpreter interpreter;
  SpuriousErrors spurious{*this};

  // Whether a limit (time, instructions, a stop request) has ended the exploration; the first
  // time it has, the wind-down begins (windDownLeft).
  bool limitReached();

private:
  Sides forkOn(ExecutionState &s, const ExprRef &cond, bool aboutLayout);
  // At a fork being replayed: the sides the prefix (or prefixes) name.
  Sides replayBranch(ExecutionState &s, const ExprRef &cond);
  void pushConstraint(ExecutionState &s, const ExprRef &c) {
    if (!c->isTrue())
      s.constraints.push_back(c);
  }
  void setUpGlobals(ExecutionState &s);
  void setUpEntry(ExecutionState &s);
  uint64_t stringArray(ExecutionState &s, const std::vector<std::string> &strings, const std::string &name);
  void runSlice(ExecutionState &s);
  void reapTerminated();
  bool splitFrontier(size_t count);
  void checkMemory();
  RunStatistics finish();

  ResultSink &sink_;
  std::unique_ptr<Searcher> searcher_;
  std::map<uint64_t, std::unique_ptr<ExecutionState>> states_; // by id: creation order
  std::unordered_set<ExecutionState *> terminated_;
  std::set<std::string> reportedErrors_;
  Clock::time_point start_;
  std::string limitReason_;
  Clock::time_point limitAt_;       // when limitReason_ was set
  uint64_t testsCutByWindDown_ = 0; // partial paths left without a test when it ran out
  uint64_t nextStateId_ = 1;
  std::atomic<size_t> splitRequested_{0};
  std::atomic<size_t> live_{0};
  uint64_t lastCheck_ = 0;
  MemoryGauge memoryGauge_;
  uint64_t limitChecks_ = 0;
  std::unique_ptr<MemoryCeiling> memoryCeiling_; // while run() runs, under --max-memory
  // While run() runs, when a stop can be requested or the ceiling reached (after the ceiling:
  // it is destroyed first).
  std::unique_ptr<StopRelay> stopRelay_;
};

} // namespace cairn::engine
