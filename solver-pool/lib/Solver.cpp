#include "cairn/solver/Solver.h"

#include "cairn/expr/ExprUtil.h"

namespace cairn {

Solver::~Solver() = default;

const char *satResultName(SatResult r) {
  switch (r) {
  case SatResult::Sat: return "sat";
  case SatResult::Unsat: return "unsat";
  case SatResult::Unknown: return "unknown";
  }
  return "?";
}

ExprContext *contextOf(const Query &q) {
  if (q.expr)
    return &q.expr->context();
  if (!q.constraints.empty())
    return &q.constraints.front()->context();
  if (!q.terms.empty())
    return &q.terms.front()->context();
  return nullptr;
}

void completeModel(Assignment &model, const Query &query) {
  SymbolCollector symbols;
  for (const ExprRef &c : query.constraints)
    symbols.add(c.get());
  if (query.expr)
    symbols.add(query.expr.get());
  for (const ExprRef &t : query.terms)
    symbols.add(t.get());
  for (const SymbolDecl *s : symbols.symbols()) {
    if (s->cls == SymbolClass::Bound || model.has(s))
      continue;
    if (s->isArray())
      model.setArray(s, std::vector<u128>(s->size, 0));
    else
      model.setScalar(s, 0);
  }
}

namespace {

Answer<bool> satisfiable(Solver &solver, const std::vector<ExprRef> &constraints,
                         const ExprRef &e) {
  if (e->isConstant() && constraints.empty())
    return {e->isTrue(), {}};
  SolverResponse r = solver.check(Query(constraints, e), false);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  return {r.result == SatResult::Sat, {}};
}

Answer<bool> negate(Answer<bool> a) {
  if (a.value)
    a.value = !*a.value;
  return a;
}

} // namespace

Answer<bool> Solver::mayBeTrue(const std::vector<ExprRef> &c, const ExprRef &e) {
  return satisfiable(*this, c, e);
}

Answer<bool> Solver::mayBeFalse(const std::vector<ExprRef> &c, const ExprRef &e) {
  return satisfiable(*this, c, e->context().lnot(e));
}

Answer<bool> Solver::mustBeTrue(const std::vector<ExprRef> &c, const ExprRef &e) {
  return negate(mayBeFalse(c, e));
}

Answer<bool> Solver::mustBeFalse(const std::vector<ExprRef> &c, const ExprRef &e) {
  return negate(mayBeTrue(c, e));
}

Answer<Validity> Solver::evaluate(const std::vector<ExprRef> &c, const ExprRef &e) {
  if (e->isConstant())
    return {e->isTrue() ? Validity::True : Validity::False, {}};
  Answer<bool> canBeFalse = mayBeFalse(c, e);
  if (!canBeFalse.known())
    return {std::nullopt, canBeFalse.reason};
  if (!*canBeFalse)
    return {Validity::True, {}};
  Answer<bool> canBeTrue = mayBeTrue(c, e);
  if (!canBeTrue.known())
    return {std::nullopt, canBeTrue.reason};
  return {*canBeTrue ? Validity::Either : Validity::False, {}};
}

Answer<u128> Solver::getValue(const std::vector<ExprRef> &c, const ExprRef &e) {
  if (e->isConstant())
    return {e->value(), {}};
  SolverResponse r = check(Query(c, e->context().trueExpr(), {e}), true);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  if (r.result == SatResult::Unsat)
    return {std::nullopt, "the constraints are unsatisfiable"};
  return {cairn::evaluate(e.get(), r.model), {}};
}

Answer<Assignment> Solver::getInitialValues(const std::vector<ExprRef> &c,
                                            const std::vector<ExprRef> &symbols) {
  if (symbols.empty())
    return {Assignment(), {}};
  Query q(c, symbols.front()->context().trueExpr(), symbols);
  SolverResponse r = check(q, true);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  if (r.result == SatResult::Unsat)
    return {std::nullopt, "the constraints are unsatisfiable"};
  completeModel(r.model, q);
  return {std::move(r.model), {}};
}

} // namespace cairn
