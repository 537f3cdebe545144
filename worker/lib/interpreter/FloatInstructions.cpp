#include "interpreter/FloatInstructions.h"

#include "cairn/expr/Float.h"

#include <array>
#include <optional>
#include <span>

namespace cairn::engine {

namespace {

u128 signOf(unsigned width) { return u128(1) << (width - 1); }

// LLVM's fcmp predicate bits: 1 equal, 2 greater, 4 less, 8 unordered.
unsigned predicateOf(FloatOp op) { return unsigned(op) - unsigned(FloatOp::CmpFirst); }

// The kind an instruction is on its own, where it is one.
std::optional<Kind> kindOf(FloatOp op) {
  switch (op) {
  case FloatOp::Add: return Kind::FAdd;
  case FloatOp::Sub: return Kind::FSub;
  case FloatOp::Mul: return Kind::FMul;
  case FloatOp::Div: return Kind::FDiv;
  case FloatOp::Rem: return Kind::FRem;
  case FloatOp::FusedMulAdd: return Kind::FFma;
  case FloatOp::ToSigned: return Kind::FToSInt;
  case FloatOp::ToUnsigned: return Kind::FToUInt;
  case FloatOp::FromSigned: return Kind::SIntToF;
  case FloatOp::FromUnsigned: return Kind::UIntToF;
  case FloatOp::Extend:
  case FloatOp::Truncate: return Kind::FConvert;
  case FloatOp::Sqrt: return Kind::FSqrt;
  default: return std::nullopt;
  }
}

// The rounding to an integral value an instruction is, where it is one.
std::optional<RoundingMode> roundingOf(FloatOp op) {
  switch (op) {
  case FloatOp::Floor: return RoundingMode::Downward;
  case FloatOp::Ceil: return RoundingMode::Upward;
  case FloatOp::Trunc: return RoundingMode::TowardZero;
  case FloatOp::Round:
  case FloatOp::LRound: return RoundingMode::NearestAway;
  case FloatOp::RoundEven:
  case FloatOp::LRint: return RoundingMode::NearestEven;
  default: return std::nullopt;
  }
}

} // namespace

unsigned floatOperandCount(FloatOp op) {
  switch (op) {
  case FloatOp::MulAdd:
  case FloatOp::FusedMulAdd: return 3;
  case FloatOp::Add:
  case FloatOp::Sub:
  case FloatOp::Mul:
  case FloatOp::Div:
  case FloatOp::Rem:
  case FloatOp::MinNum:
  case FloatOp::MaxNum:
  case FloatOp::CopySign: return 2;
  default: return op >= FloatOp::CmpFirst ? 2 : 1;
  }
}

u128 floatOnBits(FloatOp op, unsigned ow, unsigned rw, u128 a, u128 b, u128 c) {
  if (std::optional<Kind> k = kindOf(op))
    return foldFloat(*k, rw, ow, 0, a, b, c);
  auto same = [&](Kind k, u128 x, u128 y) { return foldFloat(k, ow, ow, 0, x, y); };
  auto less = [&](u128 x, u128 y) { return foldFloat(Kind::FOlt, 1, ow, 0, x, y) != 0; };
  auto nan = [&](u128 x) { return isNaNEncoding(x, requireFloatFormat(ow)); };
  if (std::optional<RoundingMode> mode = roundingOf(op)) {
    if (op == FloatOp::LRint || op == FloatOp::LRound)
      return foldFloat(Kind::FToSInt, rw, ow, 0, foldFloat(Kind::FRound, ow, ow, unsigned(*mode), a));
    return nan(a) ? a : foldFloat(Kind::FRound, ow, ow, unsigned(*mode), a);
  }
  switch (op) {
  case FloatOp::Neg: return a ^ signOf(ow);
  case FloatOp::MulAdd: return same(Kind::FAdd, same(Kind::FMul, a, b), c);
  case FloatOp::Abs: return a & widthMask(ow - 1); // exact, NaNs included
  case FloatOp::MinNum: return nan(a) ? b : nan(b) ? a : less(b, a) ? b : a;
  case FloatOp::MaxNum: return nan(a) ? b : nan(b) ? a : less(a, b) ? b : a;
  case FloatOp::CopySign: return (a & widthMask(ow - 1)) | (b & signOf(ow));
  default: {
    const unsigned p = predicateOf(op);
    const bool unordered = nan(a) || nan(b);
    return ((p & 1) && foldFloat(Kind::FOeq, 1, ow, 0, a, b)) || ((p & 2) && less(b, a)) ||
           ((p & 4) && less(a, b)) || ((p & 8) && unordered);
  }
  }
}

ExprRef floatOnExprs(ExprContext &ctx, FloatOp op, unsigned ow, unsigned rw, const ExprRef &a, const ExprRef &b,
                     const ExprRef &c) {
  if (std::optional<Kind> k = kindOf(op)) {
    const ExprRef operands[3] = {a, b, c};
    return ctx.floatOp(*k, std::span<const ExprRef>(operands, floatOperandCount(op)), rw);
  }
  auto same = [&](Kind k, const ExprRef &x, const ExprRef &y) { return ctx.floatOp(k, std::array{x, y}); };
  auto less = [&](const ExprRef &x, const ExprRef &y) { return same(Kind::FOlt, x, y); };
  auto nan = [&](const ExprRef &x) { return ctx.lnot(same(Kind::FOeq, x, x)); };
  auto bits = [&](u128 v) { return ctx.constant(v, ow); };
  if (std::optional<RoundingMode> mode = roundingOf(op)) {
    ExprRef integral = ctx.floatOp(Kind::FRound, std::array{a}, ow, unsigned(*mode));
    if (op == FloatOp::LRint || op == FloatOp::LRound)
      return ctx.floatOp(Kind::FToSInt, std::array{integral}, rw);
    return ctx.ite(nan(a), a, integral);
  }
  switch (op) {
  case FloatOp::Neg: return ctx.bvxor(a, bits(signOf(ow)));
  case FloatOp::MulAdd: return same(Kind::FAdd, same(Kind::FMul, a, b), c);
  case FloatOp::Abs: return ctx.bvand(a, bits(widthMask(ow - 1)));
  case FloatOp::MinNum: return ctx.ite(nan(a), b, ctx.ite(nan(b), a, ctx.ite(less(b, a), b, a)));
  case FloatOp::MaxNum: return ctx.ite(nan(a), b, ctx.ite(nan(b), a, ctx.ite(less(a, b), b, a)));
  case FloatOp::CopySign:
    return ctx.bvor(ctx.bvand(a, bits(widthMask(ow - 1))), ctx.bvand(b, bits(signOf(ow))));
  default: break;
  }
  // The ordered predicate of `mask` (bits 1 equal, 2 greater, 4 less); an unordered one is
  // the negation of the ordered predicate of the bits it lacks (ult = !oge).
  auto ordered = [&](unsigned mask) -> ExprRef {
    switch (mask) {
    case 0: return ctx.falseExpr();
    case 1: return same(Kind::FOeq, a, b);
    case 2: return less(b, a);
    case 3: return same(Kind::FOle, b, a);
    case 4: return less(a, b);
    case 5: return same(Kind::FOle, a, b);
    case 6: return ctx.lor(less(a, b), less(b, a));
    default: return ctx.land(same(Kind::FOeq, a, a), same(Kind::FOeq, b, b));
    }
  };
  const unsigned p = predicateOf(op);
  return p & 8 ? ctx.lnot(ordered(7 & ~p)) : ordered(p);
}

Value floatOnValues(ExprContext &ctx, FloatOp op, unsigned ow, unsigned rw, std::span<const Value> operands) {
  const unsigned n = floatOperandCount(op);
  u128 bits[3] = {};
  bool concrete = true;
  for (unsigned i = 0; i < n; ++i) {
    bits[i] = operands[i].bits;
    concrete = concrete && operands[i].concrete();
  }
  if (concrete)
    return Value(floatOnBits(op, ow, rw, bits[0], bits[1], bits[2]));
  ExprRef e[3];
  for (unsigned i = 0; i < n; ++i)
    e[i] = operands[i].expr(ctx, ow);
  return Value(floatOnExprs(ctx, op, ow, rw, e[0], e[1], e[2]));
}

} // namespace cairn::engine
