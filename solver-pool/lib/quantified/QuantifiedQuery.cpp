#include "QuantifiedQuery.h"

#include "cairn/expr/ExprUtil.h"

#include <stdexcept>
#include <unordered_map>

namespace cairn::quantified {

namespace {

// Universals are enumerated instance by instance; past this many the procedure gives up and the
// core decides the query.
constexpr uint64_t kMaxInstances = 1 << 16;
// A model's arrays are vectors: a cell past this index is never written by duplicate.
constexpr u128 kMaxCellIndex = u128(1) << 20;

// A read of an array symbol: the select and its index.
struct Read {
  const SymbolDecl *array;
  const Expr *select;
  const Expr *index;
};

// The reads below `e`: those whose index mentions `bound` (vreads), or when `bound` is null
// those whose index mentions no bound variable (closed reads).
std::vector<Read> readsOf(const Expr *e, const Expr *bound) {
  std::vector<Read> out;
  std::vector<const Expr *> work{e};
  std::unordered_set<const Expr *> seen;
  while (!work.empty()) {
    const Expr *n = work.back();
    work.pop_back();
    if (!seen.insert(n).second || isLeaf(n->kind()))
      continue;
    // A read through stores (s[n] = 0 written after the array was made symbolic) reads the
    // array symbol below them wherever no store's index is the read's: its cells are the
    // symbol's, and a write to a cell a store covers changes nothing.
    const Expr *base = n->kind() == Kind::Select ? n->kid(0) : nullptr;
    while (base && base->kind() == Kind::Store)
      base = base->kid(0);
    if (base && base->kind() == Kind::ArraySymbol) {
      const Expr *index = n->kid(1);
      bool wanted = bound ? mentions(index, bound) : true;
      if (!bound) {
        SymbolCollector symbols;
        symbols.add(index);
        for (const SymbolDecl *s : symbols.symbols())
          wanted &= s->cls != SymbolClass::Bound;
      }
      if (wanted)
        out.push_back({base->symbol(), n, index});
    }
    for (unsigned k = 0; k < n->numKids(); ++k)
      work.push_back(n->kid(k));
  }
  return out;
}

// The term t with pattern[t/x] ≐ target, if there is one: the two are the same up to the
// occurrences of x, and where the pattern has x + c the target's term less c will do.
class Matcher {
public:
  Matcher(ExprContext &ctx, const Expr *x) : ctx_(ctx), x_(x) {}

  std::optional<ExprRef> match(const Expr *pattern, const Expr *target) {
    bound_ = ExprRef();
    if (!go(pattern, target) || !bound_)
      return std::nullopt;
    return bound_;
  }

private:
  bool go(const Expr *p, const Expr *t) {
    if (p == x_) {
      if (bound_)
        return bound_.get() == t;
      bound_ = ExprRef(t);
      return true;
    }
    if (!mentions(p, x_))
      return p == t;
    const ExprRef saved = bound_;
    if (p->kind() == t->kind() && p->width() == t->width() && p->aux() == t->aux() &&
        p->numKids() == t->numKids() && !isLeaf(p->kind())) {
      bool all = true;
      for (unsigned k = 0; all && k < p->numKids(); ++k)
        all = go(p->kid(k), t->kid(k));
      if (all)
        return true;
      bound_ = saved;
    }
    if (p->kind() == Kind::Add)
      for (unsigned side = 0; side < 2; ++side)
        if (p->kid(side)->isConstant() && go(p->kid(1 - side), ctx_.sub(ExprRef(t), ExprRef(p->kid(side))).get()))
          return true;
    bound_ = saved;
    return false;
  }

  ExprContext &ctx_;
  const Expr *x_;
  ExprRef bound_;
};

bool holds(const Expr *e, const Assignment &m) {
  try {
    return evaluatesTrue(e, m);
  } catch (const std::domain_error &) {
    return false;
  }
}

} // namespace

size_t CellHash::operator()(const Cell &c) const {
  return std::hash<const void *>()(c.array) ^ (std::hash<uint64_t>()(uint64_t(c.index)) * 0x9e3779b97f4a7c15ull);
}

std::optional<QuantifiedQuery> QuantifiedQuery::of(const Query &q) {
  std::vector<ExprRef> clauses;
  for (const ExprRef &c : q.constraints)
    conjuncts(c.get(), clauses);
  if (q.expr)
    conjuncts(q.expr.get(), clauses);
  QuantifiedQuery out;
  for (const ExprRef &c : clauses) {
    if (c->isTrue())
      continue;
    if (std::optional<BoundedForall> f = asBoundedForall(c.get()))
      out.foralls_.push_back(std::move(*f));
    else
      out.free_.push_back(c);
  }
  if (out.foralls_.empty())
    return std::nullopt;
  out.ctx_ = &out.foralls_.front().body->context();
  return out;
}

std::vector<ExprRef> QuantifiedQuery::strip() const {
  ExprContext &ctx = *ctx_;
  std::vector<ExprRef> out = free_;
  for (const BoundedForall &f : foralls_) {
    const ExprRef one = ctx.constant(1, f.bound->width());
    out.push_back(ctx.implies(ctx.uge(f.count, one), substitute(ctx, f.body, f.bound.get(), one)));
    std::vector<ExprRef> parts;
    conjuncts(f.body.get(), parts);
    Matcher matcher(ctx, f.bound.get());
    for (const ExprRef &clause : free_) {
      const ExprRef negated = ctx.lnot(clause);
      for (const ExprRef &part : parts)
        if (std::optional<ExprRef> t = matcher.match(part.get(), negated.get())) {
          out.push_back(ctx.lnot(ctx.land(ctx.ule(one, *t), ctx.ule(*t, f.count))));
          break;
        }
    }
  }
  return out;
}

std::optional<uint64_t> QuantifiedQuery::instances(const BoundedForall &f, const Assignment &m) const {
  try {
    const u128 k = evaluate(f.count.get(), m);
    if (k > kMaxInstances)
      return std::nullopt;
    return uint64_t(k);
  } catch (const std::domain_error &) {
    return std::nullopt;
  }
}

bool QuantifiedQuery::satisfiedBy(const Assignment &m) const {
  for (const ExprRef &c : free_)
    if (!holds(c.get(), m))
      return false;
  for (const BoundedForall &f : foralls_) {
    std::optional<uint64_t> n = instances(f, m);
    if (!n)
      return false;
    Assignment at = m;
    for (uint64_t v = 1; v <= *n; ++v) {
      at.setScalar(f.bound->symbol(), v);
      if (!holds(f.body.get(), at))
        return false;
    }
  }
  return true;
}

void QuantifiedQuery::duplicate(Assignment &m, const Cells &conflicts) const {
  for (const BoundedForall &f : foralls_) {
    std::optional<uint64_t> n = instances(f, m);
    if (!n || *n < 2)
      continue;
    // The first read of each array the universal reads at the bound variable.
    std::vector<Read> chosen;
    for (const Read &r : readsOf(f.body.get(), f.bound.get())) {
      bool have = false;
      for (const Read &c : chosen)
        have |= c.array == r.array;
      if (!have)
        chosen.push_back(r);
    }
    Assignment at = m;
    const SymbolDecl *i = f.bound->symbol();
    for (const Read &r : chosen) {
      at.setScalar(i, 1);
      const u128 value = evaluate(r.select, at);
      for (uint64_t v = 2; v <= *n; ++v) {
        at.setScalar(i, v);
        const u128 index = evaluate(r.index, at);
        if (index > kMaxCellIndex || conflicts.count({r.array, index}))
          continue;
        m.setElement(r.array, uint64_t(index), value);
        at.setElement(r.array, uint64_t(index), value);
      }
    }
  }
}

std::optional<QuantifiedQuery::Repair> QuantifiedQuery::repair(const Assignment &m) const {
  ExprContext &ctx = *ctx_;
  Repair out;
  std::vector<std::optional<uint64_t>> counts;
  for (const BoundedForall &f : foralls_) {
    std::optional<uint64_t> n = instances(f, m);
    if (!n)
      return std::nullopt;
    counts.push_back(n);
    Assignment at = m;
    const std::vector<Read> reads = readsOf(f.body.get(), f.bound.get());
    for (uint64_t v = 1; v <= *n; ++v) {
      at.setScalar(f.bound->symbol(), v);
      if (!holds(f.body.get(), at))
        for (const Read &r : reads)
          out.conflicts.insert({r.array, evaluate(r.index, at)});
    }
  }
  for (const ExprRef &c : free_)
    if (!holds(c.get(), m))
      for (const Read &r : readsOf(c.get(), nullptr))
        out.conflicts.insert({r.array, evaluate(r.index, m)});

  out.constraints = strip();
  std::unordered_set<const SymbolDecl *> quantifiedArrays;
  for (size_t u = 0; u < foralls_.size(); ++u) {
    const BoundedForall &f = foralls_[u];
    const std::vector<Read> reads = readsOf(f.body.get(), f.bound.get());
    for (const Read &r : reads)
      quantifiedArrays.insert(r.array);
    Assignment at = m;
    for (uint64_t v = 1; v <= *counts[u]; ++v) {
      at.setScalar(f.bound->symbol(), v);
      for (const Read &r : reads)
        if (out.conflicts.count({r.array, evaluate(r.index, at)})) {
          out.constraints.push_back(substitute(ctx, f.body, f.bound.get(), ctx.constant(v, f.bound->width())));
          break;
        }
    }
  }
  // Every closed term keeps its value: the repaired model is a modification of m.
  SymbolCollector symbols;
  std::vector<Read> closedReads;
  auto collect = [&](const ExprRef &e) {
    symbols.add(e.get());
    for (const Read &r : readsOf(e.get(), nullptr))
      closedReads.push_back(r);
  };
  for (const ExprRef &c : free_)
    collect(c);
  for (const BoundedForall &f : foralls_) {
    collect(f.count);
    collect(f.body);
  }
  for (const SymbolDecl *s : symbols.symbols())
    if (!s->isArray() && s->cls != SymbolClass::Bound)
      out.constraints.push_back(ctx.eq(ctx.symbol(s), ctx.constant(m.scalar(s), s->width)));
  std::unordered_set<const Expr *> fixed;
  for (const Read &r : closedReads)
    if (!quantifiedArrays.count(r.array) && fixed.insert(r.select).second)
      out.constraints.push_back(ctx.eq(ExprRef(r.select), ctx.constant(evaluate(r.select, m), r.select->width())));
  return out;
}

} // namespace cairn::quantified
