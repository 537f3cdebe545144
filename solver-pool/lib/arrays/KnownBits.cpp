#include "KnownBits.h"

#include <algorithm>

namespace cairn::arrays {

namespace {

// Past this depth a term counts as unknown: the analysis recurses, and index terms are shallow.
constexpr unsigned kMaxDepth = 256;

// Bits `count` and up, within the width: zero in every value not above 2^count - 1.
u128 bitsFrom(unsigned count, unsigned width) {
  return count >= width ? 0 : widthMask(width) & ~widthMask(count);
}

// Bits known zero in every value no greater than `max`.
u128 aboveMaximum(u128 max, unsigned width) { return bitsFrom(bitLength(max), width); }

unsigned trailingZeros(const KnownBits &k, unsigned width) {
  unsigned n = 0;
  while (n < width && ((k.zero >> n) & 1))
    ++n;
  return n;
}

KnownBits exact(u128 v, unsigned width) { return {widthMask(width) & ~v, v & widthMask(width)}; }

KnownBits meet(const KnownBits &a, const KnownBits &b) { return {a.zero & b.zero, a.one & b.one}; }

KnownBits bitNot(const KnownBits &a, unsigned width) {
  return {a.one & widthMask(width), a.zero & widthMask(width)};
}

// a + b + carry, where carry is 0 or 1. The carry into a bit is monotone in the operands' bits:
// it is 0 for every value when it is 0 in the sum of the largest values, and 1 when it is 1 in
// the sum of the smallest. A bit of the sum is known where both operands' bits and the carry
// into it are.
KnownBits addWithCarry(const KnownBits &a, const KnownBits &b, bool carry, unsigned width) {
  const u128 m = widthMask(width);
  const u128 aMax = ~a.zero & m, bMax = ~b.zero & m;
  const u128 sumMax = (aMax + bMax + (carry ? 1 : 0)) & m;
  const u128 sumMin = (a.one + b.one + (carry ? 1 : 0)) & m;
  const u128 carryZero = ~(sumMax ^ aMax ^ bMax) & m;
  const u128 carryOne = (sumMin ^ a.one ^ b.one) & m;
  const u128 known = (a.zero | a.one) & (b.zero | b.one) & (carryZero | carryOne) & m;
  return {~sumMin & known, sumMin & known};
}

KnownBits shiftLeft(const KnownBits &a, unsigned k, unsigned width) {
  if (k >= width)
    return exact(0, width);
  const u128 m = widthMask(width);
  return {((a.zero << k) | widthMask(k)) & m, (a.one << k) & m};
}

KnownBits shiftRight(const KnownBits &a, unsigned k, unsigned width, bool arithmetic) {
  if (k >= width)
    k = width; // logical: all zero; arithmetic: all sign, as below
  const u128 m = widthMask(width);
  const u128 top = m & ~(m >> k);
  KnownBits r{k >= width ? 0 : (a.zero >> k), k >= width ? 0 : (a.one >> k)};
  const u128 sign = u128(1) << (width - 1);
  if (!arithmetic || (a.zero & sign))
    r.zero |= top;
  else if (a.one & sign)
    r.one |= top;
  return r;
}

// The product's low zeros are both operands' together; where both operands fit in a few bits,
// so does the product.
KnownBits multiply(const KnownBits &a, const KnownBits &b, unsigned width) {
  const u128 m = widthMask(width);
  const unsigned low = std::min(width, trailingZeros(a, width) + trailingZeros(b, width));
  const unsigned active = bitLength(~a.zero & m) + bitLength(~b.zero & m);
  return {widthMask(low) | bitsFrom(active, width), 0};
}

bool isPowerOfTwo(u128 v) { return v != 0 && (v & (v - 1)) == 0; }

} // namespace

std::optional<PowerOfTwoScaled> powerOfTwoScaled(const Expr *e) {
  if (e->kind() == Kind::Shl) {
    if (e->kid(1)->isConstant() && e->kid(1)->value() < e->width())
      return PowerOfTwoScaled{e->kid(0), unsigned(e->kid(1)->value())};
    return std::nullopt;
  }
  if (e->kind() != Kind::Mul)
    return std::nullopt;
  for (unsigned c = 0; c < 2; ++c)
    if (e->kid(c)->isConstant() && isPowerOfTwo(e->kid(c)->value()))
      return PowerOfTwoScaled{e->kid(1 - c), bitLength(e->kid(c)->value()) - 1};
  return std::nullopt;
}

KnownBits KnownBitsAnalysis::of(const Expr *e, unsigned depth) {
  if (e->isConstant())
    return exact(e->value(), e->width());
  if (auto it = memo_.find(e); it != memo_.end())
    return it->second;
  KnownBits k = depth > kMaxDepth ? KnownBits{} : compute(e, depth + 1);
  memo_.emplace(e, k);
  return k;
}

KnownBits KnownBitsAnalysis::elementOf(const Expr *array, unsigned depth) {
  switch (array->kind()) {
  case Kind::Store: return meet(of(array->kid(2), depth), elementOf(array->kid(0), depth + 1));
  case Kind::ConstArray: {
    const ConstArrayData &d = *array->constArray();
    KnownBits k = exact(d.defaultValue, d.width);
    for (u128 v : d.values)
      k = meet(k, exact(v, d.width));
    return k;
  }
  default: return {};
  }
}

KnownBits KnownBitsAnalysis::compute(const Expr *e, unsigned depth) {
  const unsigned w = e->width();
  const u128 m = widthMask(w);
  auto kid = [&](unsigned i) { return of(e->kid(i), depth); };
  auto constantKid = [&](unsigned i) { return e->kid(i)->isConstant(); };
  switch (e->kind()) {
  case Kind::Select: return elementOf(e->kid(0), depth);
  case Kind::Concat: {
    const unsigned lw = e->kid(1)->width();
    KnownBits h = kid(0), l = kid(1);
    return {(h.zero << lw) | l.zero, (h.one << lw) | l.one};
  }
  case Kind::Extract: {
    KnownBits x = kid(0);
    const unsigned off = e->extractOffset();
    return {(x.zero >> off) & m, (x.one >> off) & m};
  }
  case Kind::ZExt: {
    KnownBits x = kid(0);
    x.zero |= m & ~widthMask(e->kid(0)->width());
    return x;
  }
  case Kind::SExt: {
    KnownBits x = kid(0);
    const unsigned kw = e->kid(0)->width();
    const u128 sign = u128(1) << (kw - 1), upper = m & ~widthMask(kw);
    if (x.zero & sign)
      x.zero |= upper;
    else if (x.one & sign)
      x.one |= upper;
    return x;
  }
  case Kind::Add: return addWithCarry(kid(0), kid(1), false, w);
  case Kind::Sub: return addWithCarry(kid(0), bitNot(kid(1), w), true, w);
  case Kind::Mul:
    if (std::optional<PowerOfTwoScaled> s = powerOfTwoScaled(e))
      return shiftLeft(of(s->x, depth), s->k, w);
    return multiply(kid(0), kid(1), w);
  case Kind::UDiv:
    if (constantKid(1) && e->kid(1)->value() != 0)
      return {aboveMaximum((~kid(0).zero & m) / e->kid(1)->value(), w), 0};
    return {aboveMaximum(~kid(0).zero & m, w), 0}; // x / 0 is all ones: not below x
  case Kind::URem: {
    // x % y is at most x, and below y where y is not 0 (x % 0 is x).
    const u128 xMax = ~kid(0).zero & m, yMax = ~kid(1).zero & m;
    if (constantKid(1) && isPowerOfTwo(e->kid(1)->value())) {
      KnownBits x = kid(0);
      const u128 low = e->kid(1)->value() - 1;
      return {(x.zero & low) | (m & ~low), x.one & low};
    }
    const bool nonZero = constantKid(1) && e->kid(1)->value() != 0;
    return {aboveMaximum(nonZero ? std::min(xMax, yMax - 1) : xMax, w), 0};
  }
  case Kind::Not: return bitNot(kid(0), w);
  case Kind::And: {
    KnownBits a = kid(0), b = kid(1);
    return {a.zero | b.zero, a.one & b.one};
  }
  case Kind::Or: {
    KnownBits a = kid(0), b = kid(1);
    return {a.zero & b.zero, a.one | b.one};
  }
  case Kind::Xor: {
    KnownBits a = kid(0), b = kid(1);
    return {(a.zero & b.zero) | (a.one & b.one), (a.zero & b.one) | (a.one & b.zero)};
  }
  case Kind::Shl:
    if (constantKid(1))
      return shiftLeft(kid(0), unsigned(std::min<u128>(e->kid(1)->value(), w)), w);
    return {};
  case Kind::LShr:
  case Kind::AShr:
    if (constantKid(1))
      return shiftRight(kid(0), unsigned(std::min<u128>(e->kid(1)->value(), w)), w, e->kind() == Kind::AShr);
    return {};
  case Kind::Ite: return meet(kid(1), kid(2));
  default: return {};
  }
}

} // namespace cairn::arrays
