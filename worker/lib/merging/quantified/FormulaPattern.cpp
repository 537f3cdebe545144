#include "merging/quantified/FormulaPattern.h"

#include "cairn/expr/Quantified.h"
#include "merging/quantified/ZeroTests.h"

#include <unordered_map>
#include <vector>

namespace cairn::engine::quantified {

namespace {

bool isLeaf(const Expr *e) {
  return e->isConstant() || e->kind() == Kind::Symbol || e->kind() == Kind::ArraySymbol ||
         e->kind() == Kind::ConstArray;
}

// A comparison the simplifier wrote in another form at 0 (ZeroTests.h), as the comparison it
// came from: its kind and kids, the 0 among them.
struct General {
  Kind kind;
  ExprRef kids[2];
};
std::optional<General> general(const Expr *e) {
  ExprContext &ctx = e->context();
  if (e->kind() == Kind::Not)
    if (std::optional<ExprRef> y = zeroComparand(e->kid(0)))
      return General{Kind::Ult, {ctx.constant(0, (*y)->width()), *y}};
  if (std::optional<ExprRef> y = zeroComparand(e))
    return General{Kind::Ule, {*y, ctx.constant(0, (*y)->width())}};
  return std::nullopt;
}

// Walks ψ_1 and ψ_ℓ side by side: the places (nodes of ψ_1) where they hold different constants,
// with ψ_ℓ's value; false where they differ otherwise. Where one holds a comparison at 0 in the
// simplifier's form and the other the comparison itself, they are compared as comparisons, and
// ψ_1's such nodes are remembered (`generalized`) so that the pattern is written as the
// comparison.
class Diff {
public:
  Diff(std::vector<std::pair<const Expr *, u128>> &places, std::unordered_map<const Expr *, General> &generalized)
      : places_(places), generalized_(generalized) {}
  bool go(const Expr *a, const Expr *b) {
    if (a == b)
      return true;
    if (a->kind() != b->kind()) {
      if (std::optional<General> g = general(a); g && g->kind == b->kind() && go(g->kids[0].get(), b->kid(0)) &&
                                                 go(g->kids[1].get(), b->kid(1))) {
        generalized_.emplace(a, *g);
        return true;
      }
      if (std::optional<General> g = general(b); g && g->kind == a->kind())
        return go(a->kid(0), g->kids[0].get()) && go(a->kid(1), g->kids[1].get());
      return false;
    }
    if (a->width() != b->width() || a->aux() != b->aux() || a->numKids() != b->numKids() ||
        a->domainWidth() != b->domainWidth())
      return false;
    if (a->isConstant()) {
      places_.emplace_back(a, b->value());
      return true;
    }
    if (isLeaf(a))
      return false;
    for (unsigned k = 0; k < a->numKids(); ++k)
      if (!go(a->kid(k), b->kid(k)))
        return false;
    return true;
  }

private:
  std::vector<std::pair<const Expr *, u128>> &places_;
  std::unordered_map<const Expr *, General> &generalized_;
};

// Two's-complement value of a `width`-bit constant.
__int128 signedValue(u128 v, unsigned width) {
  if (width < 128 && (v >> (width - 1)) & 1)
    v |= ~widthMask(width);
  return __int128(v);
}

// ψ_1 with the places replaced by `term` (cut or extended to each place's width).
struct Filling {
  const std::unordered_map<const Expr *, bool> &places;
  const std::unordered_map<const Expr *, General> &generalized;
  const ExprRef &term;
  std::unordered_map<const Expr *, ExprRef> done;
};

ExprRef fill(ExprContext &ctx, const Expr *e, Filling &f) {
  if (f.places.count(e)) {
    const unsigned w = e->width(), tw = f.term->width();
    return w == tw ? f.term : w < tw ? ctx.extract(f.term, 0, w) : ctx.zext(f.term, w);
  }
  if (isLeaf(e))
    return ExprRef(e);
  if (auto it = f.done.find(e); it != f.done.end())
    return it->second;
  ExprRef out;
  if (auto g = f.generalized.find(e); g != f.generalized.end()) {
    ExprRef kids[2] = {fill(ctx, g->second.kids[0].get(), f), fill(ctx, g->second.kids[1].get(), f)};
    out = ctx.build(g->second.kind, kids, 1);
    f.done.emplace(e, out);
    return out;
  }
  ExprRef kids[3];
  for (unsigned k = 0; k < e->numKids(); ++k)
    kids[k] = fill(ctx, e->kid(k), f);
  out = ctx.build(e->kind(), std::span<const ExprRef>(kids, e->numKids()), e->width(), e->aux());
  f.done.emplace(e, out);
  return out;
}

} // namespace

std::optional<ExprRef> synthesize(ExprContext &ctx, std::span<const ExprRef> instances,
                                  std::span<const uint64_t> points, const ExprRef &x) {
  if (instances.empty() || instances.size() != points.size())
    return std::nullopt;
  // The places (nodes of ψ_1) where it and some ψ_ℓ hold different constants, and ψ_ℓ's
  // value at each; every ψ_ℓ must differ at all of them, with one value γ_ℓ.
  std::vector<std::unordered_map<const Expr *, u128>> values(instances.size());
  std::unordered_map<const Expr *, bool> places;
  std::unordered_map<const Expr *, General> generalized;
  for (size_t l = 1; l < instances.size(); ++l) {
    std::vector<std::pair<const Expr *, u128>> diff;
    if (!Diff(diff, generalized).go(instances[0].get(), instances[l].get()))
      return std::nullopt;
    for (const auto &[place, value] : diff) {
      auto [it, fresh] = values[l].emplace(place, value);
      if (!fresh && it->second != value)
        return std::nullopt;
      places.emplace(place, true);
    }
  }
  if (places.empty())
    return instances[0];
  std::vector<__int128> gamma(instances.size());
  const Expr *any = places.begin()->first;
  gamma[0] = signedValue(any->value(), any->width());
  for (const auto &[place, unused] : places)
    if (signedValue(place->value(), place->width()) != gamma[0])
      return std::nullopt;
  for (size_t l = 1; l < instances.size(); ++l) {
    if (values[l].size() != places.size())
      return std::nullopt; // ψ_ℓ agrees with ψ_1 at a place where another ψ differs
    gamma[l] = signedValue(values[l].begin()->second, values[l].begin()->first->width());
    for (const auto &[place, value] : values[l])
      if (signedValue(value, place->width()) != gamma[l])
        return std::nullopt;
  }
  // The line through the first two points with different d, checked at all of them.
  size_t second = 1;
  while (second < points.size() && points[second] == points[0])
    ++second;
  if (second == points.size())
    return std::nullopt; // ψ_ℓ differ at one point
  const __int128 dd = __int128(points[second]) - __int128(points[0]), dg = gamma[second] - gamma[0];
  if (dg % dd != 0)
    return std::nullopt;
  const __int128 a = dg / dd, b = gamma[0] - a * __int128(points[0]);
  for (size_t l = 0; l < points.size(); ++l)
    if (a * __int128(points[l]) + b != gamma[l])
      return std::nullopt;
  const unsigned xw = x->width();
  ExprRef term = ctx.add(ctx.mul(ctx.constant(u128(a) & widthMask(xw), xw), x), ctx.constant(u128(b) & widthMask(xw), xw));
  Filling filling{places, generalized, term, {}};
  ExprRef phi = fill(ctx, instances[0].get(), filling);
  // The places are nodes, which hash-consing shares: a constant that varies in one position and
  // not in another is one node. So φ[d_ℓ/x] ≐ ψ_ℓ is checked, as the theorem asks.
  for (size_t l = 0; l < points.size(); ++l)
    if (substitute(ctx, phi, x.get(), ctx.constant(points[l], xw)) != instances[l])
      return std::nullopt;
  return phi;
}

} // namespace cairn::engine::quantified
