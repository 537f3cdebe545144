// musl's math functions as floating-point terms (MathTerms.h).
#include "interpreter/MathTerms.h"

#include "cairn/expr/Float.h"

#include <array>
#include <cmath>

namespace cairn::engine {

namespace {

// Terms over one float format, for the functions musl writes with bit operations.
class FloatTerms {
public:
  FloatTerms(ExprContext &c, unsigned width) : ctx(c), f(requireFloatFormat(width)) {}

  ExprRef bits(u128 v) const { return ctx.constant(v, f.width); }
  ExprRef op(Kind k, const ExprRef &a, const ExprRef &b) const { return ctx.floatOp(k, std::array{a, b}); }
  ExprRef isNaN(const ExprRef &x) const { return ctx.lnot(op(Kind::FOeq, x, x)); }
  ExprRef isZero(const ExprRef &x) const { return op(Kind::FOeq, x, bits(0)); }
  ExprRef negative(const ExprRef &x) const { return ctx.extract(x, f.width - 1, 1); }
  // The magnitude of `v` with the sign of `x`.
  ExprRef withSignOf(const ExprRef &v, const ExprRef &x) const {
    return ctx.bvor(ctx.bvand(v, bits(widthMask(f.width - 1))), ctx.bvand(x, bits(f.signBit())));
  }
  ExprRef exponentField(const ExprRef &x) const { return ctx.extract(x, fractionEnd(), f.exponentBits); }
  // `x` with its biased exponent replaced by `e` (exponentBits wide).
  ExprRef withExponent(const ExprRef &x, const ExprRef &e) const {
    const u128 field = f.exponentMask() << fractionEnd();
    return ctx.bvor(ctx.bvand(x, bits(widthMask(f.width) & ~field)), ctx.shl(ctx.zext(e, f.width), bits(fractionEnd())));
  }
  ExprRef power(int k) const { return bits(encodeFloat(std::ldexp(1.0L, k), f)); }
  int bias() const { return int(f.exponentMask() >> 1); }

  ExprContext &ctx;
  const FloatFormat f;

private:
  // Where the exponent field starts: above the fraction and x87's integer bit.
  unsigned fractionEnd() const { return f.fractionBits + (f.explicitInteger ? 1 : 0); }
};

} // namespace

ExprRef minMaxTerm(ExprContext &c, bool max, const ExprRef &x, const ExprRef &y) {
  const FloatTerms t(c, x->width());
  ExprRef signsDiffer = c.ne(t.negative(x), t.negative(y));
  ExprRef bySign = max ? c.ite(t.negative(x), y, x) : c.ite(t.negative(x), x, y);
  ExprRef byOrder = max ? c.ite(t.op(Kind::FOlt, x, y), y, x) : c.ite(t.op(Kind::FOlt, x, y), x, y);
  return c.ite(t.isNaN(x), y, c.ite(t.isNaN(y), x, c.ite(signsDiffer, bySign, byOrder)));
}

ExprRef positiveDifferenceTerm(ExprContext &c, const ExprRef &x, const ExprRef &y) {
  const FloatTerms t(c, x->width());
  ExprRef difference = c.ite(t.op(Kind::FOlt, y, x), t.op(Kind::FSub, x, y), t.bits(0));
  return c.ite(t.isNaN(x), x, c.ite(t.isNaN(y), y, difference));
}

// musl's steps: an exponent out of range is brought in by at most two multiplications by 2^emax (or by 2^emin * 2^p, p the precision musl
// uses: 24, 53, 113), then clamped, and the last factor built from its bits.
ExprRef scaledTerm(ExprContext &c, const ExprRef &x, const ExprRef &exponent) {
  const FloatTerms t(c, x->width());
  const int emax = t.bias(), emin = 1 - t.bias();
  const int precision = t.f.width == 32 ? 24 : t.f.width == 64 ? 53 : 113;
  const ExprRef high = t.power(emax), low = t.power(emin + precision);
  auto n64 = [&](int64_t v) { return c.constant(u128(uint64_t(v)), 64); };
  ExprRef n = c.sext(exponent, 64);
  ExprRef y = x;
  for (int round = 0; round < 2; ++round) {
    ExprRef up = c.sgt(n, n64(emax)), down = c.slt(n, n64(emin));
    y = c.ite(up, t.op(Kind::FMul, y, high), c.ite(down, t.op(Kind::FMul, y, low), y));
    n = c.ite(up, c.sub(n, n64(emax)), c.ite(down, c.sub(n, n64(emin + precision)), n));
  }
  n = c.ite(c.sgt(n, n64(emax)), n64(emax), c.ite(c.slt(n, n64(emin)), n64(emin), n));
  ExprRef field = c.extract(c.add(n, n64(t.bias())), 0, t.f.exponentBits);
  ExprRef factor = c.bvor(t.withExponent(t.bits(0), field), t.bits(t.f.integerBit()));
  return t.op(Kind::FMul, y, factor);
}

// A subnormal is scaled into the normal range first (by 2^64, x87's by 2^120, as musl does).
FrexpTerms frexpTerms(ExprContext &c, const ExprRef &x) {
  const FloatTerms t(c, x->width());
  const unsigned eb = t.f.exponentBits;
  const int shift = t.f.width == 80 ? 120 : 64;
  ExprRef field = t.exponentField(x);
  ExprRef subnormal = c.eq(field, c.constant(0, eb));
  ExprRef y = c.ite(subnormal, t.op(Kind::FMul, x, t.power(shift)), x);
  ExprRef half = c.constant(u128(t.bias() - 1), eb);
  ExprRef exponent = c.sub(c.sub(c.zext(t.exponentField(y), 32), c.zext(half, 32)),
                           c.ite(subnormal, c.constant(u128(shift), 32), c.constant(0, 32)));
  ExprRef zero = c.land(subnormal, t.isZero(x));
  ExprRef special = c.eq(field, c.constant(t.f.exponentMask(), eb));
  return {c.ite(c.lor(special, zero), x, t.withExponent(y, half)), c.ite(zero, c.constant(0, 32), exponent),
          special};
}

// x - trunc(x) is exact; its sign is x's but for an integral x (+0 from the subtraction).
std::pair<ExprRef, ExprRef> modfTerms(ExprContext &c, const ExprRef &x) {
  const FloatTerms t(c, x->width());
  ExprRef truncated = c.floatOp(Kind::FRound, std::array{x}, t.f.width, unsigned(RoundingMode::TowardZero));
  ExprRef special = c.eq(t.exponentField(x), c.constant(t.f.exponentMask(), t.f.exponentBits));
  ExprRef fraction = c.ite(t.isNaN(x), x,
                           c.ite(special, c.bvand(x, t.bits(t.f.signBit())),
                                 t.withSignOf(t.op(Kind::FSub, x, truncated), x)));
  return {fraction, c.ite(special, x, truncated)};
}

} // namespace cairn::engine
