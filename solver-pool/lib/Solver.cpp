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

// The query's AddressForm: the question's constraints with `expr` (already symbolic).
std::shared_ptr<const AddressForm> formOf(const AddressQuestion *q, ExprRef expr) {
  if (!q)
    return nullptr;
  return std::make_shared<const AddressForm>(AddressForm{q->constraints, std::move(expr), q->layoutDependent});
}

Answer<bool> satisfiable(Solver &solver, const std::vector<ExprRef> &constraints,
                         const ExprRef &e, std::shared_ptr<const AddressForm> form) {
  if (e->isConstant() && constraints.empty())
    return {e->isTrue(), {}};
  Query q(constraints, e);
  q.symbolic = std::move(form);
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

Answer<bool> Solver::mayBeTrue(const std::vector<ExprRef> &c, const ExprRef &e,
                               const AddressQuestion *sym) {
  return satisfiable(*this, c, e, formOf(sym, sym ? sym->expr : ExprRef()));
}

Answer<bool> Solver::mayBeFalse(const std::vector<ExprRef> &c, const ExprRef &e,
                                const AddressQuestion *sym) {
  return satisfiable(*this, c, e->context().lnot(e),
                     formOf(sym, sym ? e->context().lnot(sym->expr) : ExprRef()));
}

Answer<bool> Solver::mustBeTrue(const std::vector<ExprRef> &c, const ExprRef &e,
                                const AddressQuestion *sym) {
  return negate(mayBeFalse(c, e, sym));
}

Answer<bool> Solver::mustBeFalse(const std::vector<ExprRef> &c, const ExprRef &e,
                                 const AddressQuestion *sym) {
  return negate(mayBeTrue(c, e, sym));
}

Answer<Validity> Solver::evaluate(const std::vector<ExprRef> &c, const ExprRef &e,
                                  const AddressQuestion *sym) {
  if (e->isConstant())
    return {e->isTrue() ? Validity::True : Validity::False, {}};
  Answer<bool> canBeFalse = mayBeFalse(c, e, sym);
  if (!canBeFalse.known())
    return {std::nullopt, canBeFalse.reason};
  if (!*canBeFalse)
    return {Validity::True, {}};
  Answer<bool> canBeTrue = mayBeTrue(c, e, sym);
  if (!canBeTrue.known())
    return {std::nullopt, canBeTrue.reason};
  return {*canBeTrue ? Validity::Either : Validity::False, {}};
}

Answer<u128> Solver::getValue(const std::vector<ExprRef> &c, const ExprRef &e,
                              const AddressQuestion *sym) {
  if (e->isConstant())
    return {e->value(), {}};
  Query q(c, e->context().trueExpr(), {e});
  q.symbolic = formOf(sym, e->context().trueExpr());
  SolverResponse r = check(q, true);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  if (r.result == SatResult::Unsat)
    return {std::nullopt, "the constraints are unsatisfiable"};
  return {cairn::evaluate(e.get(), r.model), {}};
}

Answer<Assignment> Solver::getInitialValues(const std::vector<ExprRef> &c,
                                            const std::vector<ExprRef> &symbols,
                                            const AddressQuestion *sym) {
  if (symbols.empty())
    return {Assignment(), {}};
  Query q(c, symbols.front()->context().trueExpr(), symbols);
  q.symbolic = formOf(sym, symbols.front()->context().trueExpr());
  SolverResponse r = check(q, true);
  if (r.result == SatResult::Unknown)
    return {std::nullopt, r.reason};
  if (r.result == SatResult::Unsat)
    return {std::nullopt, "the constraints are unsatisfiable"};
  completeModel(r.model, q);
  return {std::move(r.model), {}};
}

} // namespace cairn
