// A solver layer for the path conditions of merged states: a constraint that is a disjunction
// (the merged paths' suffixes) stands for "one of these paths". A model of the query with that
// constraint narrowed to one disjunct satisfies the whole, and the narrowed query is an
// ordinary path's, which the caches below have likely answered already; the solver need not
// take the disjunction apart. Used for models (a test of a merged state); when the narrowed
// query is not satisfiable the whole query goes on.
#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

namespace cairn {

namespace {

class DisjunctSplitSolver final : public SolverLayer {
public:
  explicit DisjunctSplitSolver(std::unique_ptr<Solver> next) : SolverLayer(std::move(next)) {
    stats_.layer = "disjunct-split";
  }
  std::string name() const override { return "disjunct-split(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    if (!wantModel)
      return next_->check(q, wantModel);
    Query narrow;
    bool split = false;
    // A disjunct's conjuncts may be disjunctions again (a merged state merged once more): each
    // is narrowed in turn, so that what goes on is one path's conjunction.
    std::vector<ExprRef> pending(q.constraints.rbegin(), q.constraints.rend());
    while (!pending.empty()) {
      ExprRef c = std::move(pending.back());
      pending.pop_back();
      if (!isDisjunction(c.get())) {
        narrow.constraints.push_back(std::move(c));
        continue;
      }
      split = true;
      std::vector<ExprRef> parts;
      conjuncts(firstDisjunct(c.get()), parts);
      pending.insert(pending.end(), parts.rbegin(), parts.rend());
    }
    if (!split)
      return next_->check(q, wantModel);
    ScopedSolverTimer timer(stats_);
    narrow.expr = q.expr;
    narrow.terms = q.terms;
    narrow.arrayTypes = q.arrayTypes;
    SolverResponse r = next_->check(narrow, true);
    if (r.result != SatResult::Sat)
      return next_->check(q, wantModel);
    ++stats_.answered;
    completeModel(r.model, q); // symbols only the other disjuncts read: any value does
    return r;
  }

private:
  static bool isDisjunction(const Expr *e) { return e && e->width() == 1 && e->kind() == Kind::Or; }
  static const Expr *firstDisjunct(const Expr *e) {
    while (isDisjunction(e))
      e = e->kid(0);
    return e;
  }
};

} // namespace

std::unique_ptr<Solver> createDisjunctSplitSolver(std::unique_ptr<Solver> next) {
  return std::make_unique<DisjunctSplitSolver>(std::move(next));
}

} // namespace cairn
