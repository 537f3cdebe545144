#include "cairn/expr/Fold.h"

#include <cassert>

namespace cairn {

namespace {

u128 negate(u128 v, unsigned width) { return (~v + 1) & widthMask(width); }
bool signBit(u128 v, unsigned width) { return (v >> (width - 1)) & 1; }

u128 signedDiv(u128 a, u128 b, unsigned width) {
  bool na = signBit(a, width), nb = signBit(b, width);
  u128 ua = na ? negate(a, width) : a;
  u128 ub = nb ? negate(b, width) : b;
  // SMT-LIB: bvsdiv is bvudiv on magnitudes, negated when exactly one operand is negative.
  u128 q = ub == 0 ? widthMask(width) : ua / ub;
  return na != nb ? negate(q, width) : q;
}

u128 signedRem(u128 a, u128 b, unsigned width) {
  bool na = signBit(a, width), nb = signBit(b, width);
  u128 ua = na ? negate(a, width) : a;
  u128 ub = nb ? negate(b, width) : b;
  u128 r = ub == 0 ? ua : ua % ub;
  return na ? negate(r, width) : r; // the remainder takes the dividend's sign
}

} // namespace

u128 foldBinaryWide(Kind kind, u128 a, u128 b, unsigned width) {
  const u128 m = widthMask(width);
  switch (kind) {
  case Kind::Add: return (a + b) & m;
  case Kind::Sub: return (a - b) & m;
  case Kind::Mul: return (a * b) & m;
  case Kind::UDiv: return b == 0 ? m : a / b;
  case Kind::URem: return b == 0 ? a : a % b;
  case Kind::SDiv: return signedDiv(a, b, width);
  case Kind::SRem: return signedRem(a, b, width);
  case Kind::And: return a & b;
  case Kind::Or: return a | b;
  case Kind::Xor: return a ^ b;
  case Kind::Shl: return b >= width ? 0 : (a << unsigned(b)) & m;
  case Kind::LShr: return b >= width ? 0 : a >> unsigned(b);
  case Kind::AShr: {
    if (!signBit(a, width))
      return b >= width ? 0 : a >> unsigned(b);
    if (b >= width)
      return m;
    return (toSigned(a, width) >> unsigned(b)) & m;
  }
  case Kind::Eq: return a == b;
  case Kind::Ult: return a < b;
  case Kind::Ule: return a <= b;
  case Kind::Slt: return toSigned(a, width) < toSigned(b, width);
  case Kind::Sle: return toSigned(a, width) <= toSigned(b, width);
  default: assert(false && "not a binary bit-vector kind"); return 0;
  }
}

u128 foldUnary(Kind kind, u128 a, unsigned width, unsigned toWidth, unsigned offset) {
  switch (kind) {
  case Kind::Not: return ~a & widthMask(width);
  case Kind::ZExt: return a;
  case Kind::SExt: return u128(toSigned(a, width)) & widthMask(toWidth);
  case Kind::Extract: return (a >> offset) & widthMask(toWidth);
  default: assert(false && "not a unary bit-vector kind"); return 0;
  }
}

} // namespace cairn
