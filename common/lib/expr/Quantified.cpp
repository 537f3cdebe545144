#include "cairn/expr/Quantified.h"
#include "cairn/expr/ExprRewrite.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cairn {

namespace {

ExprRef guardOf(ExprContext &ctx, const ExprRef &bound, const ExprRef &count) {
  return ctx.land(ctx.ule(ctx.constant(1, bound->width()), bound), ctx.ule(bound, count));
}

// Every k of `i <= k` in `e`: the guard's, and any the body compares the bound variable with
// (s[i] read within n: i <= n).
std::vector<const Expr *> countCandidates(const Expr *e, const Expr *bound) {
  std::vector<const Expr *> out;
  std::vector<const Expr *> work{e};
  std::unordered_set<const Expr *> seen;
  while (!work.empty()) {
    const Expr *n = work.back();
    work.pop_back();
    if (!seen.insert(n).second || isLeaf(n->kind()))
      continue;
    if (n->kind() == Kind::Ule && n->kid(0) == bound)
      out.push_back(n->kid(1));
    for (unsigned k = 0; k < n->numKids(); ++k)
      work.push_back(n->kid(k));
  }
  return out;
}

} // namespace

ExprRef boundedForall(ExprContext &ctx, const ExprRef &bound, const ExprRef &count, const ExprRef &body) {
  return ctx.forall(bound, ctx.implies(guardOf(ctx, bound, count), body));
}

// The body is rebuilt from the parts found and compared by identity (expressions are
// hash-consed), so whatever the simplifier made of the guard, only boundedForall's shape
// matches.
std::optional<BoundedForall> asBoundedForall(const Expr *e) {
  if (e->kind() != Kind::Forall)
    return std::nullopt;
  const Expr *bound = e->kid(0), *body = e->kid(1);
  if (body->kind() != Kind::Or)
    return std::nullopt;
  ExprContext &ctx = e->context();
  for (const Expr *count : countCandidates(body, bound)) {
    const ExprRef guard = guardOf(ctx, ExprRef(bound), ExprRef(count));
    for (unsigned side = 0; side < 2; ++side)
      if (ctx.implies(guard, ExprRef(body->kid(side))).get() == body)
        return BoundedForall{ExprRef(bound), ExprRef(count), ExprRef(body->kid(side))};
  }
  return std::nullopt;
}

bool mentions(const Expr *e, const Expr *x) {
  std::vector<const Expr *> work{e};
  std::unordered_set<const Expr *> seen;
  while (!work.empty()) {
    const Expr *n = work.back();
    work.pop_back();
    if (n == x)
      return true;
    if (!seen.insert(n).second || isLeaf(n->kind()))
      continue;
    for (unsigned k = 0; k < n->numKids(); ++k)
      work.push_back(n->kid(k));
  }
  return false;
}


ExprRef substitute(ExprContext &ctx, const ExprRef &e, const Expr *x, const ExprRef &by) {
  return rebuildWith(ctx, e.get(), [&](const Expr *n, auto &&) { return n == x ? by : ExprRef(); });
}

ExprRef instantiate(ExprContext &ctx, const ExprRef &e, const Expr *count, uint64_t value) {
  const ExprRef k = ctx.constant(value, count->width());
  return rebuildWith(ctx, e.get(), [&](const Expr *n, auto &&rebuild) -> ExprRef {
    if (n == count)
      return k;
    std::optional<BoundedForall> f = asBoundedForall(n);
    if (!f || f->count.get() != count)
      return ExprRef();
    const ExprRef body = rebuild(f->body.get());
    ExprRef out = ctx.trueExpr();
    for (uint64_t v = 1; v <= value; ++v)
      out = ctx.land(out, substitute(ctx, body, f->bound.get(), ctx.constant(v, f->bound->width())));
    return out;
  });
}

} // namespace cairn
