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
  // Called by several layers for each model: one collector per thread keeps its tables.
  thread_local SymbolCollector symbols;
  symbols.clear();
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

// The query's built form: the path's built constraints with `expr` (already as built); none
// when the path has none.
std::shared_ptr<const QueryForm> formOf(const PathConstraints &path, ExprRef expr) {
  if (!path.built)
    return nullptr;
  return std::make_shared<const QueryForm>(QueryForm{*path.built, std::move(expr), path.concreteOnly});
}

std::shared_ptr<const ArrayTypes> arrayTypesOf(const PathConstraints &path) {
  return path.list ? path.list->arrayTypes() : nullptr;
}

Answer<bool> satisfiable(Solver &solver, const PathConstraints &path, const ExprRef &e,
                         std::shared_ptr<const QueryForm> form) {
  if (e->isConstant() && path.solved.empty())
    return {e->isTrue(), {}};
  Query q(path.solved, e);
  q.original = std::move(form);
  q.path = path.list;
  q.arrayTypes = arrayTypesOf(path);
  SolverResponse r = solver.check(q, false);
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

Answer<bool> Solver::mayBeTrue(const PathConstraints &path, const ExprRef &e, const ExprRef &built) {
  return satisfiable(*this, path, e, formOf(path, built));
}

Answer<bool> Solver::mayBeFalse(const PathConstraints &path, const ExprRef &e, const ExprRef &built) {
  return satisfiable(*this, path, e->context().lnot(e),
                     formOf(path, path.built ? e->context().lnot(built) : ExprRef()));
}

Answer<bool> Solver::mustBeTrue(const PathConstraints &path, const ExprRef &e, const ExprRef &built) {
  return negate(mayBeFalse(path, e, built));
}

Answer<bool> Solver::mustBeFalse(const PathConstraints &path, const ExprRef &e, const ExprRef &built) {
  return negate(mayBeTrue(path, e, built));
}

Answer<Validity> Solver::evaluate(const PathConstraints &path, const ExprRef &e, const ExprRef &built) {
  if (e->isConstant())
    return {e->isTrue() ? Validity::True : Validity::False, {}};
  Answer<bool> canBeFalse = mayBeFalse(path, e, built);
  if (!canBeFalse.known())
    return {std::nullopt, canBeFalse.reason};
  if (!*canBeFalse)
    return {Validity::True, {}};
  Answer<bool> canBeTrue = mayBeTrue(path, e, built);
  if (!canBeTrue.known())
    return {std::nullopt, canBeTrue.reason};
  return {*canBeTrue ? Validity::Either : Validity::False, {}};
}

Answer<u128> Solver::getValue(const PathConstraints &path, const ExprRef &e) {
  if (e->isConstant())
    return {e->value(), {}};
  Query q(path.solved, e->context().trueExpr(), {e});
  q.original = formOf(path, e->context().trueExpr());
  q.path = path.list;
  q.arrayTypes = arrayTypesOf(path);
  SolverResponse r = check(q, true);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  if (r.result == SatResult::Unsat)
    return {std::nullopt, "the constraints are unsatisfiable"};
  return {cairn::evaluate(e.get(), r.model), {}};
}

Answer<Assignment> Solver::getInitialValues(const PathConstraints &path, const std::vector<ExprRef> &symbols) {
  if (symbols.empty())
    return {Assignment(), {}};
  Query q(path.solved, symbols.front()->context().trueExpr(), symbols);
  q.original = formOf(path, symbols.front()->context().trueExpr());
  q.path = path.list;
  q.arrayTypes = arrayTypesOf(path);
  SolverResponse r = check(q, true);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  if (r.result == SatResult::Unsat)
    return {std::nullopt, "the constraints are unsatisfiable"};
  completeModel(r.model, q);
  return {std::move(r.model), {}};
}

} // namespace cairn
