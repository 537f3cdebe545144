// A solver layer for the path conditions of merged states: a constraint that is a disjunction
// (the merged paths' suffixes) stands for "one of these paths". A model of the query with that
// constraint narrowed to one disjunct satisfies the whole, and the narrowed query is an
// ordinary path's, which the caches and the byte-domain layer below have likely answered
// already; the solver need not take the disjunction apart. So the first few disjuncts are
// tried in turn, for a branch's feasibility as for a test's inputs; when none is satisfiable
// the whole query goes on.
#include "ByteDomains.h"

#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

#include <absl/container/inlined_vector.h>

#include <algorithm>
#include <optional>

namespace cairn {

namespace {

// Disjuncts tried before the whole query: a branch on a byte the merged paths constrain
// differently is feasible on some of them only (a tokenizer over 9 characters under dynamic
// merging: 24 queries reached the core solver with the first disjunct alone tried for models,
// 11 with the first tried for every query, 7 with four, 6 with sixteen).
constexpr size_t kDisjunctsTried = 4;
// Disjuncts looked at for those tried: one whose literals leave a byte no value the query's
// other literals allow (ByteDomains.h) is unsatisfiable with no query asked, and is passed
// over; so is, at a merged path condition nested in a disjunct, each of its disjuncts that
// contradicts what the narrowed query holds already.
constexpr size_t kDisjunctsScanned = 16;

bool isDisjunction(const Expr *e) { return e && e->width() == 1 && e->kind() == Kind::Or; }

// Whether `e` is a condition built of others (a merged value's, a merged path's), parts of
// which a path's literal constraints may decide.
bool compound(const Expr *e) {
  if (!e || e->width() != 1)
    return false;
  const Kind k = e->kind() == Kind::Not ? e->kid(0)->kind() : e->kind();
  return k == Kind::And || k == Kind::Or || k == Kind::Ite;
}

// Calls `each` on up to `max` disjuncts of the disjunction `e`, left to right, until it returns
// false. The walk allocates only for a disjunction nested deeper than its inline room: it runs
// for every constraint of every query.
template <class Each> void forLeadingDisjuncts(const Expr *e, size_t max, Each each) {
  absl::InlinedVector<const Expr *, 32> pending{e};
  for (size_t seen = 0; !pending.empty() && seen < max;) {
    const Expr *d = pending.back();
    pending.pop_back();
    if (isDisjunction(d)) {
      pending.push_back(d->kid(1));
      pending.push_back(d->kid(0));
    } else if (++seen, !each(d)) {
      return;
    }
  }
}

// Up to `max` disjuncts of the disjunction `e`, left to right.
std::vector<const Expr *> leadingDisjuncts(const Expr *e, size_t max) {
  std::vector<const Expr *> out;
  forLeadingDisjuncts(e, max, [&](const Expr *d) {
    out.push_back(d);
    return true;
  });
  return out;
}

// A disjunction of paths (a merged state's condition): some disjunct is a conjunction or a
// choice, not a plain condition. A disjunction of plain conditions (a branch on !(a && b)) is
// an ordinary path's constraint, which the layers below take as it is.
bool isPathDisjunction(const Expr *e) {
  if (!isDisjunction(e))
    return false;
  bool found = false;
  forLeadingDisjuncts(e, 16, [&](const Expr *d) { return !(found = compound(d)); });
  return found;
}

class DisjunctSplitSolver final : public SolverLayer {
public:
  DisjunctSplitSolver(std::unique_ptr<Solver> next, std::shared_ptr<ByteDomains> domains)
      : SolverLayer(std::move(next)), domains_(domains ? std::move(domains) : std::make_shared<ByteDomains>()) {
    stats_.layer = "disjunct-split";
  }
  std::string name() const override { return "disjunct-split(" + next_->name() + ")"; }

  SolverResponse check(const Query &asked, bool wantModel) override {
    ++stats_.queries;
    Query simplified;
    const bool decidedHere = decided(asked, simplified, false);
    const Query &q = decidedHere ? simplified : asked;
    if (decidedHere && q.expr && q.expr->isFalse()) {
      ++stats_.answered;
      return SolverResponse{SatResult::Unsat, {}, {}};
    }
    if (std::optional<SolverResponse> r = byChoice(q, wantModel)) {
      ++stats_.answered;
      return std::move(*r);
    }
    // Split at a merged state's condition if there is one, else at a plain disjunction: its
    // disjuncts may each read one byte where together they read several.
    auto first = [&](bool (*is)(const Expr *)) {
      size_t i = 0;
      while (i < q.constraints.size() && !is(q.constraints[i].get()))
        ++i;
      return i;
    };
    size_t split = first(isPathDisjunction);
    // Merged paths' disjuncts are scanned for ones the query's literals rule out; a plain
    // disjunction's (an ordinary path's `a || b`) are few and tried as they come.
    const bool mergedPaths = split < q.constraints.size();
    if (!mergedPaths)
      split = first(isDisjunction);
    if (split == q.constraints.size())
      return next_->check(q, wantModel);
    ScopedSolverTimer timer(stats_);
    const size_t scanned = mergedPaths ? kDisjunctsScanned : kDisjunctsTried;
    // One more than scanned: whether the disjuncts scanned are all there are.
    const std::vector<const Expr *> disjuncts = leadingDisjuncts(q.constraints[split].get(), scanned + 1);
    // Every disjunct scanned was passed over or narrowed to the whole query's restriction to it.
    bool exact = disjuncts.size() <= scanned;
    // Made once the first disjunct, narrowed as it comes, was no model: most queries of merged
    // states are satisfied by their first path, and the domains cost a pass over every literal.
    std::optional<ByteDomains::Conjunction> rest;
    size_t tried = 0, i = 0;
    for (; i < disjuncts.size() && i < scanned && tried < kDisjunctsTried; ++i) {
      if (rest) {
        std::vector<ExprRef> parts;
        conjuncts(disjuncts[i], parts);
        if (!rest->allows(parts))
          continue; // no value of some byte satisfies it and the rest of the query
      }
      ++tried;
      bool narrowedMore = false;
      SolverResponse r = next_->check(narrowed(q, split, disjuncts[i], narrowedMore, rest ? &*rest : nullptr), wantModel);
      exact = exact && !narrowedMore && r.result == SatResult::Unsat;
      if (r.result != SatResult::Sat) {
        if (mergedPaths && !rest)
          rest.emplace(literalDomains(q, split));
        continue;
      }
      ++stats_.answered;
      if (wantModel)
        completeModel(r.model, q); // symbols only the other disjuncts read: any value does
      return r;
    }
    exact = exact && i == disjuncts.size();
    if (exact || unsatWithoutDisjunctions(q)) { // no disjunct is satisfiable: neither is their disjunction
      ++stats_.answered;
      return SolverResponse{SatResult::Unsat, {}, {}};
    }
    return next_->check(q, wantModel);
  }

private:
  // The query with what its constraints decide of its compound parts decided: of its expr by
  // all of them, of each compound constraint by the literal ones (but disjunctions, which
  // `narrowed` takes apart first, unless `disjunctionsToo`). With those parts go the bytes the
  // lower layers would otherwise see together. False, and `out` untouched, when nothing changed.
  bool decided(const Query &q, Query &out, bool disjunctionsToo) {
    ExprRef expr = q.expr;
    if (compound(expr.get()) && !q.constraints.empty())
      expr = assumingAll(q.constraints)(expr);
    const ByLiterals &rewritten = byLiterals(q.constraints, disjunctionsToo);
    if (rewritten.contradiction)
      expr = rewritten.contradiction; // the query is unsatisfiable (it may have no expr of its own)
    if (expr == q.expr && !rewritten.changed)
      return false;
    out = withoutPath(q);
    if (rewritten.changed)
      out.constraints = rewritten.constraints;
    else
      out.path = q.path; // the same constraints
    out.expr = std::move(expr);
    return true;
  }

  // The constraints as facts, kept for the next query: a state's branches ask of the same
  // constraints in turn (may the condition be true, may it be false).
  Assuming &assumingAll(const std::vector<ExprRef> &constraints) {
    if (!allFacts_ || allFactsOf_ != constraints) {
      allFactsOf_ = constraints;
      allFacts_.emplace(constraints.front()->context(), constraints);
    }
    return *allFacts_;
  }

  // Compound constraints rewritten by the literal ones. A state's branches ask of the same
  // constraints in turn (may the condition be true, may it be false): the last rewrite of each
  // kind is kept, since building the literals' map and rebuilding the compound constraints is
  // most of this layer's cost where merged states' branches leave compound constraints.
  struct ByLiterals {
    std::vector<ExprRef> asked, constraints;
    bool changed = false;
    ExprRef contradiction; // `false`, where a constraint became it
  };
  const ByLiterals &byLiterals(const std::vector<ExprRef> &asked, bool disjunctionsToo) {
    ByLiterals &r = lastRewrite_[disjunctionsToo];
    if (r.asked == asked && !asked.empty())
      return r;
    r = ByLiterals{asked, {}, false, nullptr};
    std::vector<ExprRef> literals;
    bool rewritable = false;
    for (const ExprRef &c : asked)
      if (!compound(c.get()))
        literals.push_back(c);
      else
        rewritable |= disjunctionsToo || !isPathDisjunction(c.get());
    if (!rewritable || literals.empty())
      return r;
    r.constraints.reserve(asked.size());
    Assuming assuming(literals.front()->context(), literals);
    for (const ExprRef &c : asked) {
      if (!compound(c.get()) || (!disjunctionsToo && isPathDisjunction(c.get()))) {
        r.constraints.push_back(c);
        continue;
      }
      ExprRef d = assuming(c);
      r.changed |= d != c;
      if (d->isFalse())
        r.contradiction = d;
      else if (!d->isTrue())
        r.constraints.push_back(std::move(d));
    }
    return r;
  }

  // A branch on a condition merged from two states, ite(the first's path, its condition, the
  // other's): satisfiable where the first's path with its condition is, or the rest with the
  // other's, and each of those is an ordinary path's query. Each case goes through this layer
  // again (a choice nested in a choice, a constraint that is a disjunction) down to
  // kChoiceDepth; nothing when a case is unknown or the expression is no such choice.
  static constexpr unsigned kChoiceDepth = 3;

  std::optional<SolverResponse> byChoice(const Query &q, bool wantModel) {
    const Expr *e = q.expr.get();
    bool negated = false;
    for (; e && e->kind() == Kind::Not && e->width() == 1; e = e->kid(0))
      negated = !negated;
    if (!e || e->kind() != Kind::Ite || e->width() != 1 || choiceDepth_ >= kChoiceDepth)
      return std::nullopt;
    ExprContext &ctx = e->context();
    auto condition = [&](unsigned kid) { return negated ? ctx.lnot(ExprRef(e->kid(kid))) : ExprRef(e->kid(kid)); };
    const ExprRef guard(e->kid(0));
    Query firstCase = withoutPath(q), otherCase = withoutPath(q);
    std::vector<ExprRef> path;
    conjuncts(guard.get(), path);
    for (ExprRef &c : path) // the merged paths' common constraints are the query's already
      if (std::find(q.constraints.begin(), q.constraints.end(), c) == q.constraints.end())
        firstCase.constraints.push_back(std::move(c));
    otherCase.constraints.push_back(ctx.lnot(guard));
    firstCase.expr = condition(1);
    otherCase.expr = condition(2);
    ++choiceDepth_;
    bool unknown = false;
    std::optional<SolverResponse> answer;
    for (const Query *c : {&firstCase, &otherCase}) {
      SolverResponse r = check(*c, wantModel);
      unknown |= r.result == SatResult::Unknown;
      if (r.result == SatResult::Sat) {
        if (wantModel)
          completeModel(r.model, q);
        answer = std::move(r);
        break;
      }
    }
    --choiceDepth_;
    if (!answer && !unknown)
      answer = SolverResponse{SatResult::Unsat, {}, {}};
    return answer;
  }

  static Query withoutPath(const Query &q) {
    Query copy;
    copy.constraints = q.constraints;
    copy.terms = q.terms;
    copy.arrayTypes = q.arrayTypes;
    return copy;
  }

  unsigned choiceDepth_ = 0;
  std::shared_ptr<ByteDomains> domains_;
  ByLiterals lastRewrite_[2]; // by disjunctionsToo
  std::vector<ExprRef> allFactsOf_;
  std::optional<Assuming> allFacts_; // assumingAll's, of allFactsOf_

  // Whether the query's constraints that are no disjunction rule it out alone: a branch the
  // merged paths' common constraints decide, with the disjunction in the way of the layers
  // below (a tokenizer's merged state asking whether a character above '9' is a quote).
  bool unsatWithoutDisjunctions(const Query &q) {
    Query rest;
    for (const ExprRef &c : q.constraints)
      if (!isPathDisjunction(c.get()))
        rest.constraints.push_back(c);
    if (rest.constraints.size() == q.constraints.size()) // no merged state's condition: the whole query
      return false;
    rest.expr = q.expr;
    rest.arrayTypes = q.arrayTypes;
    return next_->check(rest, false).result == SatResult::Unsat;
  }

  // What the query's literals allow of the bytes they read: its expr's conjuncts and its
  // constraints but `split` and the merged states' conditions.
  ByteDomains::Conjunction literalDomains(const Query &q, size_t split) {
    ByteDomains::Conjunction held(*domains_);
    if (q.expr) {
      std::vector<ExprRef> parts;
      conjuncts(q.expr.get(), parts);
      for (const ExprRef &p : parts)
        held.add(p);
    }
    for (size_t i = 0; i < q.constraints.size(); ++i)
      if (i != split && !isPathDisjunction(q.constraints[i].get()))
        held.add(q.constraints[i]);
    return held;
  }

  // `q` with its constraint `split` replaced by `disjunct`. A conjunct that is a merged state's
  // condition again (a merged state merged once more), there or in another constraint, is
  // narrowed in turn (`narrowedMore`) to its first disjunct, or, given what the query's other
  // literals allow (`rest`, literalDomains), to its first that does not contradict them and the
  // literals taken so far (the first, when each does), so that what goes on is one path's
  // conjunction; plain disjunctions stay, as on any path.
  Query narrowed(const Query &q, size_t split, const Expr *disjunct, bool &narrowedMore,
                 const ByteDomains::Conjunction *rest) {
    Query narrow;
    std::vector<ExprRef> nested; // merged conditions still to narrow
    // `rest` with the literals taken from `disjunct` and the nested conditions, made at the first
    // nested condition.
    std::optional<ByteDomains::Conjunction> held;
    auto take = [&](ExprRef c) {
      if (isPathDisjunction(c.get())) {
        nested.push_back(std::move(c));
        return;
      }
      if (held)
        held->add(c);
      narrow.constraints.push_back(std::move(c));
    };
    std::vector<ExprRef> taken; // the disjunct's conjuncts
    conjuncts(disjunct, taken);
    for (size_t i = 0; i < q.constraints.size(); ++i) {
      if (i != split)
        take(q.constraints[i]);
      else
        for (const ExprRef &p : taken)
          take(p);
    }
    std::vector<ExprRef> parts;
    while (!nested.empty()) {
      const ExprRef c = std::move(nested.back());
      nested.pop_back();
      narrowedMore = true;
      const Expr *chosen = leadingDisjuncts(c.get(), 1).front();
      if (rest) {
        if (!held) {
          held.emplace(*rest);
          for (const ExprRef &p : taken)
            if (!isPathDisjunction(p.get()))
              held->add(p);
        }
        for (const Expr *o : leadingDisjuncts(c.get(), kDisjunctsScanned)) {
          conjuncts(o, parts = {});
          if (held->allows(parts)) {
            chosen = o;
            break;
          }
        }
      }
      conjuncts(chosen, parts = {});
      for (ExprRef &p : parts)
        take(std::move(p));
    }
    narrow.expr = q.expr;
    narrow.terms = q.terms;
    narrow.arrayTypes = q.arrayTypes;
    Query decidedNarrow; // one path's literals decide more than the merged paths' did
    return decided(narrow, decidedNarrow, true) ? decidedNarrow : narrow;
  }
};

} // namespace

std::unique_ptr<Solver> createDisjunctSplitSolver(std::unique_ptr<Solver> next, std::shared_ptr<ByteDomains> domains) {
  return std::make_unique<DisjunctSplitSolver>(std::move(next), std::move(domains));
}

} // namespace cairn
