// The questions the engine asks about a state, with what every question needs around it: the
// memory model's view of the constraints, the replay of recorded answers instead of asking,
// the recording of each answer, and the end of the state when the solver fails.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/solver/Solver.h"

#include <optional>
#include <vector>

namespace cairn::engine {

class Engine;

class SolverQuestions {
public:
  explicit SolverQuestions(Engine &engine) : engine_(engine) {}

  // Decides `cond` on the state; nullopt when the solver could not (the state is ended).
  // `aboutLayout`: the question asks where objects lie (MemoryModel::addressQuestion).
  std::optional<Validity> decide(ExecutionState &s, const ExprRef &cond, bool aboutLayout = false);
  // A concrete value `v` can take on this state, constrained to it when `constrain`; nullopt
  // when the solver failed (the state is ended).
  std::optional<u128> concretize(ExecutionState &s, const Value &v, unsigned width, bool constrain);
  // Whether `v` can take one value only on this state (the path has fixed it: an assumption, an
  // earlier concretisation). `value` is set to it and the state constrained to it, or left
  // empty when `v` can take several. False when the solver could not say (the state is ended).
  bool onlyValue(ExecutionState &s, const Value &v, unsigned width, std::optional<u128> &value);
  // One value of a byte, for messages: '?' when the solver cannot say.
  uint8_t byteValue(ExecutionState &s, const ExprRef &byte);
  // Values of the state's symbolic inputs satisfying its path (a test's inputs).
  Answer<Assignment> inputs(ExecutionState &s, const std::vector<ExprRef> &arrays);

private:
  // Before a question of the exploration: its time limit is at most what --max-time leaves, so a
  // long query cannot hold the run past its limit (then the state ends as a partial path). The
  // questions for a test's inputs get the configured limit back.
  void boundByTimeLeft();

  Engine &engine_;
  double timeout_ = -1; // the lowered limit the solver has now; -1: the configured one
};

} // namespace cairn::engine
