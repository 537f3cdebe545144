#include "executor/SolverQuestions.h"

#include "executor/Engine.h"

#include <algorithm>
#include <cmath>

namespace cairn::engine {

std::optional<Validity> SolverQuestions::decide(ExecutionState &s, const ExprRef &cond, bool aboutLayout) {
  MemoryModel &model = *engine_.model;
  if (std::optional<u128> v = model.layoutValue(s, cond)) // the layout alone decides it
    return *v ? Validity::True : Validity::False;
  ExprRef c = model.substitute(s, cond);
  if (engine_.replay.replaying(s))
    return Validity(engine_.replay.next(s));
  ++engine_.stats.queries;
  boundByTimeLeft();
  Answer<Validity> v = engine_.solver->evaluate(model.solverPath(s, aboutLayout), c, cond);
  if (!v.known()) {
    engine_.terminate(s, Termination::partialPath("solver failure: " + v.reason));
    return std::nullopt;
  }
  engine_.replay.record(s, uint64_t(*v));
  return *v;
}

std::optional<u128> SolverQuestions::concretize(ExecutionState &s, const Value &v, unsigned width,
                                                bool constrain) {
  if (v.concrete())
    return v.bits;
  MemoryModel &model = *engine_.model;
  // The constraint is added with addresses substituted: it is a fact about the inputs, which
  // stays true wherever objects move later.
  if (std::optional<u128> known = model.layoutValue(s, v.sym))
    return known;
  ExprRef e = model.substitute(s, v.sym);
  std::optional<u128> value;
  if (engine_.replay.replaying(s)) {
    value = engine_.replay.nextValue(s, width);
  } else {
    ++engine_.stats.queries;
    boundByTimeLeft();
    Answer<u128> answer = engine_.solver->getValue(model.solverPath(s, false), e);
    if (!answer.known()) {
      engine_.terminate(s, Termination::partialPath("solver failure: " + answer.reason));
      return std::nullopt;
    }
    value = *answer;
    engine_.replay.recordValue(s, *value, width);
  }
  if (constrain)
    engine_.addConstraint(s, engine_.ctx.eq(e, engine_.ctx.constant(*value, width)));
  return *value;
}

bool SolverQuestions::onlyValue(ExecutionState &s, const Value &v, unsigned width, std::optional<u128> &value) {
  value.reset();
  if (v.concrete()) {
    value = v.bits;
    return true;
  }
  std::optional<u128> candidate = concretize(s, v, width, false);
  if (!candidate)
    return false;
  ExprRef same = engine_.ctx.eq(v.sym, engine_.ctx.constant(*candidate, width));
  std::optional<Validity> only = decide(s, same);
  if (!only)
    return false;
  if (*only == Validity::True) {
    // Implied by the path already; as a constraint it lets later expressions of `v` fold.
    engine_.addConstraint(s, engine_.model->substitute(s, same));
    value = candidate;
  }
  return true;
}

uint8_t SolverQuestions::byteValue(ExecutionState &s, const ExprRef &byte) {
  if (engine_.replay.replaying(s))
    return uint8_t(engine_.replay.next(s));
  MemoryModel &model = *engine_.model;
  Answer<u128> v = engine_.solver->getValue(model.solverConstraints(s), model.substitute(s, byte));
  uint8_t c = v.known() ? uint8_t(*v) : '?';
  engine_.replay.record(s, c);
  return c;
}

void SolverQuestions::boundByTimeLeft() {
  const double limit = engine_.options.maxTimeSeconds, configured = engine_.options.solver.timeoutSeconds;
  if (limit <= 0)
    return;
  const double left = std::max(limit - engine_.secondsSoFar(), 0.05);
  if (configured > 0 && left >= configured)
    return;
  // Lowered in steps, so a run near its end does not reset the solver for every question.
  if (timeout_ < 0 || left < timeout_ * 0.9) {
    engine_.solver->setTimeout(left);
    timeout_ = left;
  }
}

Answer<Assignment> SolverQuestions::inputs(ExecutionState &s, const std::vector<ExprRef> &arrays) {
  ++engine_.stats.queries;
  // A path the stop request ended mid-slice (its query interrupted) writes its test under the
  // wind-down's budget, like every path after it, and the request stops interrupting.
  engine_.limitReached();
  if (std::optional<double> left = engine_.windDownLeft()) {
    // After the run's limit: what is left of the wind-down, for this test and the rest.
    if (*left <= 0)
      return {std::nullopt, "the run's time to write its remaining tests is used up"};
    const double configured = engine_.options.solver.timeoutSeconds;
    const double limit = configured > 0 ? std::min(configured, *left) : *left;
    if (timeout_ < 0 || std::abs(limit - timeout_) > 0.1 * limit) { // in steps, as boundByTimeLeft
      engine_.solver->setTimeout(limit);
      timeout_ = limit;
    }
  } else if (timeout_ >= 0) { // a path's test gets the configured time, however late it is written
    engine_.solver->setTimeout(engine_.options.solver.timeoutSeconds);
    timeout_ = -1;
  }
  MemoryModel &model = *engine_.model;
  return engine_.solver->getInitialValues(model.solverPath(s, false), arrays);
}

} // namespace cairn::engine
