#include "interpreter/ArithmeticOverflow.h"

#include <array>

namespace cairn::engine {

namespace {

ExprRef isNegative(ExprContext &ctx, const ExprRef &e) { return ctx.slt(e, ctx.constant(0, e->width())); }

// Up to 64 bits the exact result fits in twice the width: overflow is a result that does not
// survive the round trip through the narrow width.
ExprRef overflowByWidening(ExprContext &ctx, Kind op, bool isSigned, const ExprRef &a, const ExprRef &b) {
  unsigned w = a->width(), wide = 2 * w;
  auto widen = [&](const ExprRef &e) { return isSigned ? ctx.sext(e, wide) : ctx.zext(e, wide); };
  ExprRef exact = ctx.build(op, std::array{widen(a), widen(b)});
  ExprRef narrow = ctx.extract(exact, 0, w);
  return ctx.lnot(ctx.eq(widen(narrow), exact));
}

// a * b >= 2^w for 64 < w <= 128, from 64-bit halves whose products fit in 128 bits. With
// a = ah:al and b = bh:bl, the product is al*bl + 2^64 (ah*bl + al*bh) + 2^128 ah*bh; when
// one high half is zero the middle sum is exact, and the product reaches 2^w exactly when
// middle + (al*bl >> 64) reaches 2^(w-64).
ExprRef unsignedProductOverflows(ExprContext &ctx, const ExprRef &a, const ExprRef &b) {
  unsigned w = a->width();
  auto low = [&](const ExprRef &e) { return ctx.zext(ctx.extract(e, 0, 64), 128); };
  auto high = [&](const ExprRef &e) { return ctx.zext(ctx.extract(e, 64, w - 64), 128); };
  ExprRef al = low(a), ah = high(a), bl = low(b), bh = high(b);
  ExprRef zero = ctx.constant(0, 128);
  ExprRef bothHigh = ctx.land(ctx.ne(ah, zero), ctx.ne(bh, zero));
  ExprRef middle = ctx.add(ctx.mul(ah, bl), ctx.mul(al, bh));
  ExprRef carried = ctx.add(middle, ctx.lshr(ctx.mul(al, bl), ctx.constant(64, 128)));
  ExprRef beyond = ctx.ne(ctx.lshr(carried, ctx.constant(w - 64, 128)), zero);
  return ctx.lor(bothHigh, beyond);
}

// Signed: the product of the magnitudes must fit, and be at most 2^(w-1) when the result is
// negative, below it otherwise. |INT_MIN| is 2^(w-1) as an unsigned number, so it needs no case.
ExprRef signedProductOverflows(ExprContext &ctx, const ExprRef &a, const ExprRef &b) {
  unsigned w = a->width();
  auto magnitude = [&](const ExprRef &e) { return ctx.ite(isNegative(ctx, e), ctx.neg(e), e); };
  ExprRef ma = magnitude(a), mb = magnitude(b);
  ExprRef product = ctx.mul(ma, mb);
  ExprRef limit = ctx.constant(u128(1) << (w - 1), w);
  ExprRef negative = ctx.bvxor(isNegative(ctx, a), isNegative(ctx, b));
  ExprRef fits = ctx.ite(negative, ctx.ule(product, limit), ctx.ult(product, limit));
  return ctx.lor(unsignedProductOverflows(ctx, ma, mb), ctx.lnot(fits));
}

} // namespace

ExprRef overflowFlag(ExprContext &ctx, Kind op, bool isSigned, const ExprRef &a, const ExprRef &b) {
  if (a->width() <= 64)
    return overflowByWidening(ctx, op, isSigned, a, b);
  if (op == Kind::Mul)
    return isSigned ? signedProductOverflows(ctx, a, b) : unsignedProductOverflows(ctx, a, b);
  ExprRef r = ctx.build(op, std::array{a, b});
  if (!isSigned) // a carry out of an addition wraps below a; a borrow means b > a
    return op == Kind::Add ? ctx.ult(r, a) : ctx.ult(a, b);
  // Signed: operands that push the same way (equal signs for +, different for -) and a result
  // whose sign is not the first operand's.
  ExprRef na = isNegative(ctx, a), nb = isNegative(ctx, b), nr = isNegative(ctx, r);
  ExprRef samePush = op == Kind::Add ? ctx.eq(na, nb) : ctx.ne(na, nb);
  return ctx.land(samePush, ctx.ne(nr, na));
}

} // namespace cairn::engine
