// A solver layer for the path conditions of merged states: a constraint that is a disjunction
// (the merged paths' suffixes) stands for "one of these paths". A model of the query with that
// constraint narrowed to one disjunct satisfies the whole, and the narrowed query is an
// ordinary path's, which the caches and the byte-domain layer below have likely answered
// already; the solver need not take the disjunction apart. So the first few disjuncts are
// tried in turn, for a branch's feasibility as for a test's inputs; when none is satisfiable
// the whole query goes on.
#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

namespace cairn {

namespace {

// Disjuncts tried before the whole query: a branch on a byte the merged paths constrain
// differently is feasible on some of them only (a tokenizer over 9 characters under dynamic
// merging: 24 queries reached the core solver with the first disjunct alone tried for models,
// 11 with the first tried for every query, 7 with four, 6 with sixteen).
constexpr size_t kDisjunctsTried = 4;

bool isDisjunction(const Expr *e) { return e && e->width() == 1 && e->kind() == Kind::Or; }

const Expr *firstDisjunct(const Expr *e) {
  while (isDisjunction(e))
    e = e->kid(0);
  return e;
}

// Up to `max` disjuncts of the disjunction `e`, left to right.
std::vector<const Expr *> leadingDisjuncts(const Expr *e, size_t max) {
  std::vector<const Expr *> out, pending{e};
  while (!pending.empty() && out.size() < max) {
    const Expr *d = pending.back();
    pending.pop_back();
    if (isDisjunction(d)) {
      pending.push_back(d->kid(1));
      pending.push_back(d->kid(0));
    } else {
      out.push_back(d);
    }
  }
  return out;
}

class DisjunctSplitSolver final : public SolverLayer {
public:
  explicit DisjunctSplitSolver(std::unique_ptr<Solver> next) : SolverLayer(std::move(next)) {
    stats_.layer = "disjunct-split";
  }
  std::string name() const override { return "disjunct-split(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    size_t split = 0;
    while (split < q.constraints.size() && !isDisjunction(q.constraints[split].get()))
      ++split;
    if (split == q.constraints.size())
      return next_->check(q, wantModel);
    ScopedSolverTimer timer(stats_);
    // One more than tried: whether the disjuncts tried are all there are.
    const std::vector<const Expr *> disjuncts = leadingDisjuncts(q.constraints[split].get(), kDisjunctsTried + 1);
    const bool all = disjuncts.size() <= kDisjunctsTried;
    bool exact = all; // every narrowed query was the whole query's restriction to one disjunct
    for (size_t i = 0; i < disjuncts.size() && i < kDisjunctsTried; ++i) {
      bool narrowedMore = false;
      SolverResponse r = next_->check(narrowed(q, split, disjuncts[i], narrowedMore), wantModel);
      exact = exact && !narrowedMore && r.result == SatResult::Unsat;
      if (r.result != SatResult::Sat)
        continue;
      ++stats_.answered;
      if (wantModel)
        completeModel(r.model, q); // symbols only the other disjuncts read: any value does
      return r;
    }
    if (exact) { // no disjunct is satisfiable: neither is their disjunction
      ++stats_.answered;
      return SolverResponse{SatResult::Unsat, {}, {}};
    }
    return next_->check(q, wantModel);
  }

private:
  // `q` with its constraint `split` replaced by `disjunct`. A conjunct that is a disjunction
  // again (a merged state merged once more), there or in another constraint, is narrowed to its
  // first disjunct in turn (`narrowedMore`), so that what goes on is one path's conjunction.
  static Query narrowed(const Query &q, size_t split, const Expr *disjunct, bool &narrowedMore) {
    Query narrow;
    std::vector<ExprRef> pending;
    for (size_t i = q.constraints.size(); i-- > split + 1;)
      pending.push_back(q.constraints[i]);
    std::vector<ExprRef> parts;
    conjuncts(disjunct, parts);
    pending.insert(pending.end(), parts.rbegin(), parts.rend());
    narrow.constraints.assign(q.constraints.begin(), q.constraints.begin() + split);
    while (!pending.empty()) {
      ExprRef c = std::move(pending.back());
      pending.pop_back();
      if (!isDisjunction(c.get())) {
        narrow.constraints.push_back(std::move(c));
        continue;
      }
      narrowedMore = true;
      parts.clear();
      conjuncts(firstDisjunct(c.get()), parts);
      pending.insert(pending.end(), parts.rbegin(), parts.rend());
    }
    narrow.expr = q.expr;
    narrow.terms = q.terms;
    narrow.arrayTypes = q.arrayTypes;
    return narrow;
  }
};

} // namespace

std::unique_ptr<Solver> createDisjunctSplitSolver(std::unique_ptr<Solver> next) {
  return std::make_unique<DisjunctSplitSolver>(std::move(next));
}

} // namespace cairn
