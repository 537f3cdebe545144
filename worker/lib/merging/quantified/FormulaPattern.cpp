#include "merging/quantified/FormulaPattern.h"

#include "cairn/expr/Quantified.h"
#include "merging/quantified/ZeroTests.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace cairn::engine::quantified {

namespace {

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

// Whether ψ_1 and ψ_ℓ are the same up to constants: walked side by side, where one holds a
// comparison at 0 in the simplifier's form and the other the comparison itself they are
// compared as comparisons, and a commutative node's operands in either order.
bool alike(const Expr *a, const Expr *b) {
  if (a == b)
    return true;
  if (a->kind() != b->kind()) {
    if (std::optional<General> g = general(a);
        g && g->kind == b->kind() && alike(g->kids[0].get(), b->kid(0)) && alike(g->kids[1].get(), b->kid(1)))
      return true;
    if (std::optional<General> g = general(b); g && g->kind == a->kind())
      return alike(a->kid(0), g->kids[0].get()) && alike(a->kid(1), g->kids[1].get());
    return false;
  }
  if (a->width() != b->width() || a->aux() != b->aux() || a->numKids() != b->numKids() ||
      a->domainWidth() != b->domainWidth())
    return false;
  if (a->isConstant())
    return true;
  if (isLeaf(a->kind()))
    return false;
  bool all = true;
  for (unsigned k = 0; all && k < a->numKids(); ++k)
    all = alike(a->kid(k), b->kid(k));
  if (all || a->numKids() != 2 || !isCommutative(a->kind()))
    return all;
  // The simplifier orders a commutative node's operands by their hashes, which differ from
  // one instance to the next: the other order.
  return alike(a->kid(0), b->kid(1)) && alike(a->kid(1), b->kid(0));
}

// Two's-complement value of a `width`-bit constant.
__int128 signedValue(u128 v, unsigned width) {
  if (width < 128 && (v >> (width - 1)) & 1)
    v |= ~widthMask(width);
  return __int128(v);
}

// ψ_1 with each constant where it differs from `other` (the instance at another point) replaced
// by the line through the two points, a·x + b, found by walking the two side by side as alike()
// does: each position its own line (s[x] ≠ 0 beside s[x-1] ≠ 'a' in one iteration's
// conditions), and a constant node that hash-consing shares between a varying position and a
// fixed one replaced at the first only. Fails where a slope is not an integer.
class Fill {
public:
  Fill(ExprContext &ctx, const ExprRef &x, uint64_t first, uint64_t second)
      : ctx_(ctx), x_(x), first_(first), distance_(__int128(second) - __int128(first)) {}

  bool failed() const { return failed_; }

  ExprRef go(const Expr *a, const Expr *b) {
    if (a == b)
      return ExprRef(a);
    if (auto it = done_.find({a, b}); it != done_.end())
      return it->second;
    ExprRef out = walk(a, b);
    done_.emplace(std::make_pair(a, b), out);
    return out;
  }

private:
  struct PairHash {
    size_t operator()(const std::pair<const Expr *, const Expr *> &p) const {
      return std::hash<const void *>()(p.first) * 31 + std::hash<const void *>()(p.second);
    }
  };

  ExprRef build(Kind kind, const Expr *a0, const Expr *b0, const Expr *a1, const Expr *b1, const Expr *like) {
    ExprRef kids[2] = {go(a0, b0), go(a1, b1)};
    return ctx_.build(kind, kids, like ? like->width() : 1, like ? like->aux() : 0);
  }

  // The term through (first, a) and (second, b), in a's width.
  ExprRef line(const Expr *a, const Expr *b) {
    const unsigned w = a->width(), xw = x_->width();
    const __int128 ga = signedValue(a->value(), w), dg = signedValue(b->value(), w) - ga;
    if (dg % distance_ != 0) {
      failed_ = true;
      return ExprRef(a);
    }
    const __int128 slope = dg / distance_, offset = ga - slope * __int128(first_);
    ExprRef term = ctx_.add(ctx_.mul(ctx_.constant(u128(slope) & widthMask(xw), xw), x_),
                            ctx_.constant(u128(offset) & widthMask(xw), xw));
    return w == xw ? term : w < xw ? ctx_.extract(term, 0, w) : ctx_.zext(term, w);
  }

  ExprRef walk(const Expr *a, const Expr *b) {
    if (a->kind() != b->kind()) {
      if (std::optional<General> g = general(a);
          g && g->kind == b->kind() && alike(g->kids[0].get(), b->kid(0)) && alike(g->kids[1].get(), b->kid(1)))
        return build(g->kind, g->kids[0].get(), b->kid(0), g->kids[1].get(), b->kid(1), nullptr);
      if (std::optional<General> g = general(b); g && g->kind == a->kind())
        return build(a->kind(), a->kid(0), g->kids[0].get(), a->kid(1), g->kids[1].get(), nullptr);
      return ExprRef(a); // alike() said they are: not reached
    }
    if (a->isConstant())
      return line(a, b);
    if (isLeaf(a->kind()))
      return ExprRef(a);
    if (a->numKids() == 2 && isCommutative(a->kind()) && !(alike(a->kid(0), b->kid(0)) && alike(a->kid(1), b->kid(1))))
      return build(a->kind(), a->kid(0), b->kid(1), a->kid(1), b->kid(0), a);
    ExprRef kids[3];
    for (unsigned k = 0; k < a->numKids(); ++k)
      kids[k] = go(a->kid(k), b->kid(k));
    return ctx_.build(a->kind(), std::span<const ExprRef>(kids, a->numKids()), a->width(), a->aux());
  }

  ExprContext &ctx_;
  const ExprRef &x_;
  const uint64_t first_;
  const __int128 distance_;
  bool failed_ = false;
  std::unordered_map<std::pair<const Expr *, const Expr *>, ExprRef, PairHash> done_;
};

} // namespace

std::optional<ExprRef> synthesize(ExprContext &ctx, std::span<const ExprRef> instances,
                                  std::span<const uint64_t> points, const ExprRef &x) {
  if (instances.empty() || instances.size() != points.size())
    return std::nullopt;
  if (std::all_of(instances.begin(), instances.end(), [&](const ExprRef &e) { return e == instances[0]; }))
    return instances[0];
  // The lines through the first two points with different d, checked at all of them.
  size_t second = 1;
  while (second < points.size() && points[second] == points[0])
    ++second;
  if (second == points.size())
    return std::nullopt; // ψ_ℓ differ at one point
  if (!alike(instances[0].get(), instances[second].get()))
    return std::nullopt;
  Fill fill(ctx, x, points[0], points[second]);
  ExprRef phi = fill.go(instances[0].get(), instances[second].get());
  if (fill.failed())
    return std::nullopt;
  // φ[d_ℓ/x] ≐ ψ_ℓ at every point, as the theorem asks.
  const unsigned xw = x->width();
  for (size_t l = 0; l < points.size(); ++l)
    if (substitute(ctx, phi, x.get(), ctx.constant(points[l], xw)) != instances[l])
      return std::nullopt;
  return phi;
}

} // namespace cairn::engine::quantified
