#include "Linearize.h"

#include <algorithm>

namespace cairn::arrays {

namespace {

Linear constantLinear(Int v) { return {LinearExpr::number(v), {v, v}}; }

// a * x + b * y with its range; nullopt on overflow.
std::optional<Linear> affine(Int a, const Linear &x, Int b, const Linear &y) {
  std::optional<LinearExpr> e = combine(a, x.expr, b, y.expr);
  if (!e)
    return std::nullopt;
  auto scaledRange = [](Int k, const Interval &r) -> std::optional<Interval> {
    std::optional<Int> p = checkedMul(k, r.lo), q = checkedMul(k, r.hi);
    if (!p || !q)
      return std::nullopt;
    return Interval{std::min(*p, *q), std::max(*p, *q)};
  };
  std::optional<Interval> rx = scaledRange(a, x.range), ry = scaledRange(b, y.range);
  if (!rx || !ry)
    return std::nullopt;
  std::optional<Int> lo = checkedAdd(rx->lo, ry->lo), hi = checkedAdd(rx->hi, ry->hi);
  if (!lo || !hi)
    return std::nullopt;
  return Linear{std::move(*e), {*lo, *hi}};
}

// 2^k - 1 == mask (k > 0), or 0.
unsigned lowOnesOf(u128 mask) {
  unsigned k = 0;
  while (k < 128 && ((mask >> k) & 1))
    ++k;
  return (k < 128 && (mask >> k) != 0) ? 0 : k;
}

} // namespace

Linear Linearizer::fresh(Int lo, Int hi) {
  return {LinearExpr::variable(program_.addVariable(lo, hi)), {lo, hi}};
}

Linear Linearizer::wrap(const Linear &exact, unsigned width) {
  const Int modulus = Int(1) << width;
  if (exact.range.lo >= 0 && exact.range.hi < modulus)
    return exact; // cannot wrap: no overflow variable (§6.4)
  // The overflow count lies in [floor(lo / 2^w), floor(hi / 2^w)].
  auto floorDiv = [&](Int v) { return v >= 0 ? v / modulus : -((-v + modulus - 1) / modulus); };
  const Int oLo = floorDiv(exact.range.lo), oHi = floorDiv(exact.range.hi);
  if (oLo == oHi) // the same number of wraps for every value: a shift, no variable
    if (std::optional<Linear> shifted = affine(1, exact, -oLo, constantLinear(modulus)))
      return {std::move(shifted->expr), {exact.range.lo - oLo * modulus, exact.range.hi - oLo * modulus}};
  ++overflowVariables_;
  Linear o = fresh(oLo, oHi);
  Linear z = fresh(0, maxOf(width));
  // z = exact - modulus * o
  if (std::optional<LinearExpr> rhs = combine(1, exact.expr, -modulus, o.expr))
    program_.addEqual(z.expr, *rhs);
  return z;
}

std::pair<Linear, Linear> Linearizer::divide(const Linear &e, Int scale) {
  Linear q = fresh(e.range.lo >= 0 ? e.range.lo / scale : 0, e.range.hi / scale);
  Linear r = fresh(0, scale - 1);
  if (std::optional<LinearExpr> rhs = combine(scale, q.expr, 1, r.expr))
    program_.addEqual(e.expr, *rhs);
  return {q, r};
}

std::optional<Linear> Linearizer::term(const Expr *e) {
  if (auto it = memo_.find(e); it != memo_.end())
    return it->second;
  std::optional<Linear> r;
  if (hook_)
    r = hook_(e);
  if (!r && e->width() <= kMaxLinearWidth && !e->isArray())
    r = build(e);
  memo_.emplace(e, r);
  alive_.emplace_back(e);
  return r;
}

std::optional<Linear> Linearizer::build(const Expr *e) {
  const unsigned w = e->width();
  const Int modulus = Int(1) << w;
  auto kid = [&](unsigned i) { return term(e->kid(i)); };
  auto constKid = [&](unsigned i) -> std::optional<Int> {
    if (e->kid(i)->isConstant())
      return Int(e->kid(i)->value());
    return std::nullopt;
  };
  switch (e->kind()) {
  case Kind::Constant: return constantLinear(Int(e->value()));
  case Kind::Symbol: return fresh(0, maxOf(w));
  case Kind::Select:
    if (e->kid(0)->kind() == Kind::ArraySymbol && e->kid(1)->isConstant())
      return fresh(0, maxOf(w)); // an element of an input: a variable like any symbol
    return abstractTerm(w);      // an array read the hook left alone
  case Kind::ZExt: {
    std::optional<Linear> x = kid(0);
    return x ? x : std::optional<Linear>(abstractTerm(w));
  }
  case Kind::SExt: {
    const unsigned from = e->kid(0)->width();
    std::optional<Linear> x = kid(0);
    if (!x)
      return abstractTerm(w);
    if (x->range.hi < (Int(1) << (from - 1)))
      return x; // never negative: the same value
    // x = 2^(from-1) * sign + rest; sext(x) = x + sign * (2^w - 2^from)
    Linear sign = fresh(0, 1);
    Linear rest = fresh(0, maxOf(from - 1));
    if (std::optional<LinearExpr> parts = combine(Int(1) << (from - 1), sign.expr, 1, rest.expr))
      program_.addEqual(x->expr, *parts);
    std::optional<Linear> r = affine(1, *x, modulus - (Int(1) << from), sign);
    if (!r)
      return abstractTerm(w);
    r->range = {x->range.lo, std::min(maxOf(w), r->range.hi)};
    return r;
  }
  case Kind::Extract: {
    const unsigned off = e->extractOffset();
    std::optional<Linear> x = kid(0);
    if (!x)
      return abstractTerm(w);
    if (off == 0 && x->range.hi <= maxOf(w))
      return x;
    // x = 2^(off+w) * high + 2^off * z + low
    Linear z = fresh(0, maxOf(w));
    LinearExpr parts = LinearExpr::number(0);
    if (off + w < e->kid(0)->width()) {
      Linear high = fresh(0, x->range.hi >> (off + w));
      parts = high.expr;
      parts.terms[0].second = Int(1) << (off + w);
    }
    std::optional<LinearExpr> sum = combine(1, parts, Int(1) << off, z.expr);
    if (sum && off > 0) {
      Linear low = fresh(0, maxOf(off));
      sum = combine(1, *sum, 1, low.expr);
    }
    if (!sum)
      return abstractTerm(w);
    program_.addEqual(x->expr, *sum);
    return z;
  }
  case Kind::Concat: {
    std::optional<Linear> hi = kid(0), lo = kid(1);
    std::optional<Linear> r = hi && lo ? affine(Int(1) << e->kid(1)->width(), *hi, 1, *lo) : std::nullopt;
    return r ? r : std::optional<Linear>(abstractTerm(w));
  }
  case Kind::Add:
  case Kind::Sub: {
    std::optional<Linear> a = kid(0), b = kid(1);
    std::optional<Linear> exact = a && b ? affine(1, *a, e->kind() == Kind::Add ? 1 : -1, *b) : std::nullopt;
    return exact ? wrap(*exact, w) : abstractTerm(w);
  }
  case Kind::Mul: {
    std::optional<Int> c = constKid(0);
    std::optional<Linear> x = kid(1);
    std::optional<Linear> exact = c && x ? affine(*c, *x, 0, constantLinear(0)) : std::nullopt;
    return exact ? wrap(*exact, w) : abstractTerm(w); // a product of two terms is not linear
  }
  case Kind::Shl: {
    std::optional<Int> k = constKid(1);
    if (!k)
      return abstractTerm(w);
    if (*k >= w)
      return constantLinear(0);
    std::optional<Linear> x = kid(0);
    std::optional<Linear> exact = x ? affine(Int(1) << unsigned(*k), *x, 0, constantLinear(0)) : std::nullopt;
    return exact ? wrap(*exact, w) : abstractTerm(w);
  }
  case Kind::LShr: {
    std::optional<Int> k = constKid(1);
    std::optional<Linear> x = kid(0);
    if (!k || !x)
      return abstractTerm(w);
    if (*k >= w)
      return constantLinear(0);
    if (*k == 0)
      return x;
    return divide(*x, Int(1) << unsigned(*k)).first;
  }
  case Kind::UDiv:
  case Kind::URem: {
    std::optional<Int> c = constKid(1);
    std::optional<Linear> x = kid(0);
    if (!c || !x)
      return e->kind() == Kind::URem && x ? fresh(0, x->range.hi) : abstractTerm(w); // x % y <= x
    if (*c == 0) // SMT-LIB: x / 0 = all ones, x % 0 = x
      return e->kind() == Kind::UDiv ? constantLinear(maxOf(w)) : *x;
    if (e->kind() == Kind::URem && x->range.hi < *c)
      return x;
    auto [q, r] = divide(*x, *c);
    return e->kind() == Kind::UDiv ? q : r;
  }
  case Kind::Not: {
    std::optional<Linear> x = kid(0);
    std::optional<Linear> r = x ? affine(-1, *x, 1, constantLinear(maxOf(w))) : std::nullopt;
    return r ? r : std::optional<Linear>(abstractTerm(w));
  }
  case Kind::And: {
    // With a mask of low ones the exact low bits, like an extract; otherwise at most either.
    std::optional<Int> c = constKid(0);
    if (unsigned k = c ? lowOnesOf(u128(*c)) : 0; k > 0 && k < w) {
      std::optional<Linear> x = kid(1);
      if (!x)
        return abstractTerm(w);
      if (x->range.hi <= maxOf(k))
        return x;
      return divide(*x, Int(1) << k).second;
    }
    std::optional<Linear> a = kid(0), b = kid(1);
    Linear v = fresh(0, std::min(a ? a->range.hi : maxOf(w), b ? b->range.hi : maxOf(w)));
    if (a)
      program_.addLessEqual(v.expr, a->expr);
    if (b)
      program_.addLessEqual(v.expr, b->expr);
    return v;
  }
  case Kind::Or: {
    std::optional<Linear> a = kid(0), b = kid(1);
    Linear v = fresh(std::max(a ? a->range.lo : 0, b ? b->range.lo : 0), maxOf(w));
    if (a)
      program_.addLessEqual(a->expr, v.expr);
    if (b)
      program_.addLessEqual(b->expr, v.expr);
    if (a && b)
      if (std::optional<LinearExpr> sum = combine(1, a->expr, 1, b->expr)) // a | b <= a + b
        program_.addLessEqual(v.expr, *sum);
    return v;
  }
  case Kind::Ite: {
    std::optional<Linear> a = term(e->kid(1)), b = term(e->kid(2));
    if (!a || !b)
      return abstractTerm(w);
    return fresh(std::min(a->range.lo, b->range.lo), std::max(a->range.hi, b->range.hi));
  }
  default: return abstractTerm(w); // xor, signed division, shifts by a term, comparisons
  }
}

bool Linearizer::assume(const Expr *c) {
  switch (c->kind()) {
  case Kind::Constant:
    if (c->isFalse())
      program_.addFalse();
    return true;
  case Kind::And: {
    bool a = assume(c->kid(0));
    bool b = assume(c->kid(1));
    return a || b;
  }
  case Kind::Not: return assumeNot(c->kid(0));
  case Kind::Eq: {
    if (c->kid(0)->width() == 1) {
      if (c->kid(0)->isFalse())
        return assumeNot(c->kid(1));
      if (c->kid(0)->isTrue())
        return assume(c->kid(1));
      return false; // an equivalence of conditions
    }
    std::optional<Linear> a = term(c->kid(0)), b = term(c->kid(1));
    if (!a || !b)
      return false;
    program_.addEqual(a->expr, b->expr);
    return true;
  }
  case Kind::Ult:
  case Kind::Ule: {
    if (c->kid(0)->width() == 1)
      return false;
    std::optional<Linear> a = term(c->kid(0)), b = term(c->kid(1));
    if (!a || !b)
      return false;
    const Int strict = c->kind() == Kind::Ult ? 1 : 0;
    if (std::optional<LinearExpr> lhs = combine(1, a->expr, 1, LinearExpr::number(strict)))
      program_.addLessEqual(*lhs, b->expr);
    if (b->range.hi - strict < (Int(1) << (c->kid(0)->width() - 1)))
      nonNegative_.insert(c->kid(0));
    return true;
  }
  case Kind::Slt:
  case Kind::Sle:
    if (c->kid(0)->width() == 1)
      return false;
    return assumeSigned(c->kid(0), c->kid(1), c->kind() == Kind::Slt);
  default: return false; // a disjunction, a condition variable, an equivalence
  }
}

void Linearizer::assumeAll(const std::vector<const Expr *> &constraints) {
  std::vector<const Expr *> again;
  for (const Expr *c : constraints)
    if (c && !assume(c))
      again.push_back(c);
  for (const Expr *c : again)
    assume(c);
}

bool Linearizer::assumeNot(const Expr *c) {
  switch (c->kind()) {
  case Kind::Or: { // !(a | b) = !a & !b
    bool a = assumeNot(c->kid(0));
    bool b = assumeNot(c->kid(1));
    return a || b;
  }
  case Kind::Not: return assume(c->kid(0));
  case Kind::Constant:
    if (c->isTrue())
      program_.addFalse();
    return true;
  default: return false; // !=, and the negations the simplifier did not turn into comparisons
  }
}

// a <s b (strict) or a <=s b, kept where it is one interval of unsigned values: both operands
// known non-negative, or one a constant (x >=s c for c >= 0 is c <= x <= 2^(w-1) - 1; x <s c
// for c < 0 is 2^(w-1) <= x < c as unsigned). The other cases need a disjunction: dropped.
bool Linearizer::assumeSigned(const Expr *a, const Expr *b, bool strict) {
  const unsigned w = a->width();
  if (w > kMaxLinearWidth)
    return false;
  const Int half = Int(1) << (w - 1);
  std::optional<Linear> x = term(a), y = term(b);
  if (!x || !y)
    return false;
  const bool xNonNegative = x->range.hi < half || nonNegative_.contains(a);
  const bool yNonNegative = y->range.hi < half || nonNegative_.contains(b);
  const Int s = strict ? 1 : 0;
  auto lessEqual = [&](const LinearExpr &l, Int plus, const LinearExpr &r) {
    if (std::optional<LinearExpr> lhs = combine(1, l, 1, LinearExpr::number(plus)))
      program_.addLessEqual(*lhs, r);
  };
  if (xNonNegative && yNonNegative) {
    lessEqual(x->expr, s, y->expr);
    return true;
  }
  if (a->isConstant()) { // c <s y, c <=s y
    const Int c = x->range.lo;
    if (c >= half)
      return false; // negative c: y may be any non-negative value or a greater negative one
    lessEqual(LinearExpr::number(c), s, y->expr);
    lessEqual(y->expr, 0, LinearExpr::number(half - 1));
    nonNegative_.insert(b);
    return true;
  }
  if (b->isConstant()) { // x <s c, x <=s c
    const Int c = y->range.lo;
    if (c < half)
      return false; // non-negative c: x may be any negative value or a smaller non-negative one
    lessEqual(LinearExpr::number(half), 0, x->expr);
    lessEqual(x->expr, s, LinearExpr::number(c));
    return true;
  }
  return false;
}

} // namespace cairn::arrays
