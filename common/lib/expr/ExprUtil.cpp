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

Assuming::Assuming(ExprContext &ctx, std::span<const ExprRef> known) : ctx_(ctx) {
  negations_.reserve(known.size());
  for (const ExprRef &k : known)
    if (k->width() == 1 && !k->isConstant()) {
      value_.emplace(k.get(), ctx.trueExpr());
      value_.emplace(negations_.emplace_back(ctx.lnot(k)).get(), ctx.falseExpr());
    }
}

ExprRef Assuming::operator()(const ExprRef &e) {
  if (value_.empty() || e->isConstant())
    return e;
  return rebuildWith(
      ctx_, e.get(),
      [&](const Expr *n, auto &&) {
        auto it = value_.find(n);
        return it == value_.end() ? ExprRef() : it->second;
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
