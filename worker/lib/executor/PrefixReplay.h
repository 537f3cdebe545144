// Path prefixes: every answer that steers a state is recorded (PathPrefix), and a run that
// starts at prefixes rebuilds its start states by replaying them without the solver. One state
// rebuilds all the start prefixes, in order, parting from them where they take other sides of
// a fork, so what they share is replayed once.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/PathPrefix.h"

#include <memory>
#include <set>
#include <vector>

namespace cairn::engine {

class Engine;

class PrefixReplay {
public:
  // What a prefix records at a fork past --max-forks or with forking off (klee_set_forking): the
  // true side followed, no other side.
  static constexpr uint64_t kFollowedWithoutFork = 2;

  explicit PrefixReplay(Engine &engine) : engine_(engine) {}
  // Takes the run's start and excluded prefixes; `initial` starts rebuilding the first.
  void begin(ExecutionState &initial, std::vector<PathPrefix> starts, const std::vector<PathPrefix> &excluded);

  bool replaying(const ExecutionState &s) const { return s.prefix.replayed < s.prefix.choices.size(); }
  // Replaying, or past the last recorded answer but short of the instruction the state was
  // handed over at: the run that handed it over counted those instructions, and a split must
  // not hand it on before it gets there (its new item would count them again).
  bool rebuilding(const ExecutionState &s) const {
    return replaying(s) || s.instructions < s.prefix.replayInstructions;
  }
  // The next recorded answer.
  uint64_t next(ExecutionState &s);
  u128 nextValue(ExecutionState &s, unsigned width);
  void record(ExecutionState &s, uint64_t choice);
  void recordValue(ExecutionState &s, u128 v, unsigned width);

  // At a fork being replayed: a copy of `s` for the start prefixes that take the other side, or
  // null when all take the side of `s` (each prefix names one side; a fork has two).
  ExecutionState *startsOnTheOtherSide(ExecutionState &s);
  // After a slice: start prefixes still with a state that stopped replaying never parted from
  // it, which cannot happen; each is rebuilt alone.
  void checkParted(ExecutionState &s);

private:
  size_t agreeingStarts(const ExecutionState &s, size_t from) const;
  void keepAgreeingStarts(ExecutionState &s);
  void replayAlone(size_t begin, size_t end);

  Engine &engine_;
  std::vector<PathPrefix> starts_;        // sorted
  std::unique_ptr<ExecutionState> entry_; // the entry state, for a start prefix rebuilt alone
  std::set<std::vector<uint64_t>> excluded_;
};

} // namespace cairn::engine
