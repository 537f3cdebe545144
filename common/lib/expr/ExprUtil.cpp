#include "cairn/expr/ExprUtil.h"
#include "cairn/expr/ExprContext.h"
#include "cairn/expr/ExprRewrite.h"


namespace cairn {

void conjuncts(const Expr *e, std::vector<ExprRef> &out) {
  if (e->width() == 1 && e->kind() == Kind::And) {
    conjuncts(e->kid(0), out);
    conjuncts(e->kid(1), out);
  } else {
    out.emplace_back(e);
  }
}

ExprRef conjunction(ExprContext &ctx, std::span<const ExprRef> parts) {
  ExprRef out = ctx.trueExpr();
  for (const ExprRef &p : parts)
    out = ctx.land(out, p);
  return out;
}

void SymbolCollector::clear() {
  visited_.clear();
  seen_.clear();
  symbols_.clear();
}

void SymbolCollector::add(const Expr *root) {
  std::vector<const Expr *> &work = work_;
  work.push_back(root);
  while (!work.empty()) {
    const Expr *e = work.back();
    work.pop_back();
    if (!visited_.insert(e))
      continue;
    if (e->kind() == Kind::Symbol || e->kind() == Kind::ArraySymbol) {
      if (seen_.insert(e->symbol()))
        symbols_.push_back(e->symbol());
      continue;
    }
    if (isLeaf(e->kind()))
      continue;
    for (unsigned i = e->numKids(); i-- > 0;)
      if (e->kid(i)->kind() != Kind::Constant) // most leaves: not worth a visit
        work.push_back(e->kid(i));
  }
}

Literal literalOf(const Expr *e) {
  bool denied = false;
  for (; e->kind() == Kind::Not && e->width() == 1; e = e->kid(0))
    denied = !denied;
  switch (e->kind()) {
  case Kind::Ult: return {Kind::Ult, e->kid(0), e->kid(1), denied};
  case Kind::Ule: return {Kind::Ult, e->kid(1), e->kid(0), !denied};
  case Kind::Slt: return {Kind::Slt, e->kid(0), e->kid(1), denied};
  case Kind::Sle: return {Kind::Slt, e->kid(1), e->kid(0), !denied};
  default: return {Kind::Not, e, nullptr, denied}; // the atom is the term itself
  }
}

// Facts by their atoms, not by their nodes and their negations' nodes: making each negation
// (a node looked up or made) for every fact of every query was most of a merged state's
// queries' cost.
Assuming::Assuming(ExprContext &ctx, std::span<const ExprRef> known) : ctx_(ctx) {
  known_.reserve(known.size());
  atoms_.reserve(known.size());
  for (const ExprRef &k : known)
    if (k->width() == 1 && !k->isConstant()) {
      const Literal l = literalOf(k.get());
      if (atoms_.emplace(l.atom(), !l.denied).second)
        known_.push_back(k);
    }
}

// Whether a subterm of `e` may assert or deny a known atom: false when a walk of at most
// `budget` nodes found none, true when it found one or ran out. Most constraints a merged
// state's query rewrites hold none of its literals' atoms, and the rebuild's memo was most of
// the cost of saying so.
bool Assuming::mayHold(const Expr *e, unsigned &budget) const {
  if (budget == 0)
    return true;
  --budget;
  if (e->width() == 1 && atoms_.contains(literalOf(e).atom()))
    return true;
  for (unsigned i = 0; i < e->numKids(); ++i)
    if (!e->kid(i)->isConstant() && mayHold(e->kid(i), budget))
      return true;
  return false;
}

ExprRef Assuming::operator()(const ExprRef &e) {
  if (atoms_.empty() || e->isConstant())
    return e;
  if (unsigned budget = kWalked; !mayHold(e.get(), budget))
    return e;
  rewritten_.push_back(e); // the memo's keys are its nodes: none may be freed and its address reused
  return rebuildWith(
      ctx_, e.get(),
      [&](const Expr *n, auto &&) {
        if (n->width() != 1)
          return ExprRef();
        const Literal l = literalOf(n);
        auto it = atoms_.find(l.atom());
        if (it == atoms_.end())
          return ExprRef();
        return it->second != l.denied ? ctx_.trueExpr() : ctx_.falseExpr();
      },
      rebuilt_);
}

size_t dagSize(const Expr *root) {
  PointerSet<Expr> seen;
  std::vector<const Expr *> work{root};
  while (!work.empty()) {
    const Expr *e = work.back();
    work.pop_back();
    if (!seen.insert(e) || isLeaf(e->kind()))
      continue;
    for (unsigned i = 0; i < e->numKids(); ++i)
      work.push_back(e->kid(i));
  }
  return seen.size();
}

std::string describe(const Expr *e, size_t maxNodes) {
  const size_t nodes = dagSize(e);
  return nodes <= maxNodes ? toString(e) : "(a term of " + std::to_string(nodes) + " nodes)";
}

} // namespace cairn
