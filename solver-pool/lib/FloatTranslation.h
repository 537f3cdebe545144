// The floating-point kinds in SMT-LIB's FP theory, exactly as cairn/expr/Float.h defines them
// (private to solver-pool/lib; no solver headers).
//
// Float values are bit-vector encodings in the expression language. Each node read as a float
// gets an FP term here, once: operations work on those, and a result goes back to its encoding
// where something reads its bits. SMT-LIB has one NaN and no encoding for it, so which NaN a
// result is (Float.h's rule) is built on the bit-vector side, from the operands' encodings.
// x87's 80-bit format is SMT-LIB's (15, 64) with the integer bit stored: it is dropped on the
// way in (encodings that are not numbers are NaN) and made again on the way out.
#pragma once

#include "TermMemo.h"
#include "cairn/expr/Float.h"

#include <cmath>
#include <initializer_list>

namespace cairn::backend {

enum class FpOp : uint8_t {
  Add, Sub, Mul, Div, Fma, Sqrt, Rem, RoundToIntegral, // Rem is IEEE's remainder
  Neg, Abs,
  Eq, Lt, Leq, IsNaN, IsZero, IsNegative, // Bool-valued
  Convert, FromSigned, FromUnsigned,      // to a float of the given sort
  ToSigned, ToUnsigned,                   // to a bit-vector of the given width
};

struct FpSort {
  unsigned exponentBits = 0, significandBits = 0;
};

inline FpSort fpSortOf(const FloatFormat &f) { return {f.exponentBits, f.significandBits()}; }

template <class B> class FloatTranslation {
public:
  using Term = typename B::Term;

  explicit FloatTranslation(B &b) : b_(b) {}

  // The term of the floating-point node `e` (a Bool for the comparisons, a bit-vector
  // otherwise); `bits(x)` is the bit-vector term of any node, e's operands translated already.
  template <class Bits> Term build(const Expr *e, Bits &&bits) {
    const Kind k = e->kind();
    const Expr *a = e->kid(0);
    switch (k) {
    case Kind::FOeq:
    case Kind::FOlt:
    case Kind::FOle: {
      const FloatFormat f = requireFloatFormat(a->width());
      const FpOp op = k == Kind::FOeq ? FpOp::Eq : k == Kind::FOlt ? FpOp::Lt : FpOp::Leq;
      return fp(op, {value(a, f, bits), value(e->kid(1), f, bits)});
    }
    case Kind::FToSInt:
    case Kind::FToUInt: {
      const FloatFormat f = requireFloatFormat(a->width());
      Term x = value(a, f, bits);
      return k == Kind::FToSInt ? toSigned(x, f, e->width()) : toUnsigned(x, f, e->width());
    }
    default: break;
    }
    const FloatFormat f = requireFloatFormat(e->width());
    Term r = result(e, f, bits);
    values_.add(e, r);
    if (k == Kind::SIntToF || k == Kind::UIntToF) // never NaN
      return encoding(r, f);
    return b_.mkIte(fp(FpOp::IsNaN, {r}), nanEncoding(e, f, bits), encoding(r, f));
  }

private:
  static constexpr RoundingMode kNearest = RoundingMode::NearestEven;

  Term fp(FpOp op, std::initializer_list<Term> args, RoundingMode rm = kNearest, FpSort to = {}, unsigned width = 0) {
    return b_.mkFp(op, rm, args, to, width);
  }

  // The float `x` stands for, in format `f`.
  template <class Bits> Term value(const Expr *x, const FloatFormat &f, Bits &bits) {
    if (values_.contains(x))
      return values_.at(x);
    Term t = fromEncoding(bits(x), f);
    values_.add(x, t);
    return t;
  }

  Term fromEncoding(const Term &bits, const FloatFormat &f) {
    if (!f.explicitInteger)
      return b_.mkFpFromBits(bits, fpSortOf(f));
    const unsigned top = f.width - 1, fb = f.fractionBits, eb = f.exponentBits;
    Term exponent = b_.mkExtract(top - 1, fb + 1, bits);
    Term integer = b_.mkExtract(fb, fb, bits);
    Term zeroExponent = b_.mkEq(exponent, b_.mkBv(0, eb));
    Term integerSet = b_.bvToBool(integer);
    // A pseudo-denormal (exponent 0, integer bit set) is the denormal of exponent 1.
    Term realExponent = b_.mkIte(b_.mkAnd(zeroExponent, integerSet), b_.mkBv(1, eb), exponent);
    Term interchange = b_.mkConcat(b_.mkConcat(b_.mkExtract(top, top, bits), realExponent),
                                   b_.mkExtract(fb - 1, 0, bits));
    Term number = b_.mkFpFromBits(interchange, fpSortOf(f));
    Term notANumber = b_.mkAnd(b_.mkNot(zeroExponent), b_.mkNot(integerSet)); // unnormals, pseudo-NaNs
    return b_.mkIte(notANumber, b_.mkFpNaN(fpSortOf(f)), number);
  }

  // The encoding of `r`, a float that is not NaN.
  Term encoding(const Term &r, const FloatFormat &f) {
    Term interchange = b_.mkFpToBits(r, fpSortOf(f));
    if (!f.explicitInteger)
      return interchange;
    const unsigned fb = f.fractionBits, top = f.interchangeWidth() - 1;
    Term signAndExponent = b_.mkExtract(top, fb, interchange);
    Term exponent = b_.mkExtract(top - 1, fb, interchange);
    Term integer = b_.boolToBv(b_.mkNot(b_.mkEq(exponent, b_.mkBv(0, f.exponentBits))));
    return b_.mkConcat(signAndExponent, b_.mkConcat(integer, b_.mkExtract(fb - 1, 0, interchange)));
  }

  Term constant(long double v, const FloatFormat &f) {
    const u128 enc = encodeFloat(v, f);
    if (!f.explicitInteger)
      return b_.mkFpFromBits(b_.mkBv(enc, f.width), fpSortOf(f));
    const u128 interchange = ((enc >> (f.fractionBits + 1)) << f.fractionBits) | (enc & f.fractionMask());
    return b_.mkFpFromBits(b_.mkBv(interchange, f.interchangeWidth()), fpSortOf(f));
  }

  template <class Bits> Term result(const Expr *e, const FloatFormat &f, Bits &bits) {
    const FpSort sort = fpSortOf(f);
    auto arg = [&](unsigned i) { return value(e->kid(i), f, bits); };
    switch (e->kind()) {
    case Kind::FAdd: return fp(FpOp::Add, {arg(0), arg(1)});
    case Kind::FSub: return fp(FpOp::Sub, {arg(0), arg(1)});
    case Kind::FMul: return fp(FpOp::Mul, {arg(0), arg(1)});
    case Kind::FDiv: return fp(FpOp::Div, {arg(0), arg(1)});
    case Kind::FFma: return fp(FpOp::Fma, {arg(0), arg(1), arg(2)});
    case Kind::FSqrt: return fp(FpOp::Sqrt, {arg(0)});
    case Kind::FRem: return fmod(arg(0), arg(1));
    case Kind::FRound: return fp(FpOp::RoundToIntegral, {arg(0)}, RoundingMode(e->aux()));
    case Kind::FConvert: {
      const Expr *a = e->kid(0);
      return fp(FpOp::Convert, {value(a, requireFloatFormat(a->width()), bits)}, kNearest, sort);
    }
    case Kind::SIntToF: return fp(FpOp::FromSigned, {bits(e->kid(0))}, kNearest, sort);
    case Kind::UIntToF: return fp(FpOp::FromUnsigned, {bits(e->kid(0))}, kNearest, sort);
    default: throw std::invalid_argument(std::string("not a float-valued kind: ") + kindName(e->kind()));
    }
  }

  // C's fmod from IEEE's remainder r = x - n*y (n the quotient rounded to nearest): where r's
  // sign differs from x's, the truncated quotient is one nearer zero, and x - trunc*y is r
  // moved by |y| toward x's sign (exact: fmod's result is always representable). A zero takes
  // x's sign.
  Term fmod(const Term &x, const Term &y) {
    Term r = fp(FpOp::Rem, {x, y});
    Term xNegative = fp(FpOp::IsNegative, {x});
    Term absR = fp(FpOp::Abs, {r}), absY = fp(FpOp::Abs, {y});
    Term zero = b_.mkIte(xNegative, fp(FpOp::Neg, {absR}), absR);
    Term moved = fp(FpOp::Add, {r, b_.mkIte(xNegative, fp(FpOp::Neg, {absY}), absY)});
    Term sameSign = b_.mkEq(fp(FpOp::IsNegative, {r}), xNegative);
    return b_.mkIte(fp(FpOp::IsZero, {r}), zero, b_.mkIte(sameSign, r, moved));
  }

  // A NaN operand's encoding made quiet (an x87 non-number: the default NaN).
  Term quiet(const Term &bits, const FloatFormat &f) {
    Term q = b_.mkBvOr(bits, b_.mkBv(f.quietBit(), f.width));
    if (!f.explicitInteger)
      return q;
    const unsigned i = f.fractionBits;
    return b_.mkIte(b_.bvToBool(b_.mkExtract(i, i, bits)), q, b_.mkBv(defaultNaN(f), f.width));
  }

  // Which NaN `e` is when it is one (Float.h): the first NaN operand made quiet, else the
  // default NaN; a conversion's NaN keeps the top of its operand's payload.
  template <class Bits> Term nanEncoding(const Expr *e, const FloatFormat &f, Bits &bits) {
    if (e->kind() == Kind::FConvert)
      return convertedNaN(bits(e->kid(0)), requireFloatFormat(e->kid(0)->width()), f);
    Term t = b_.mkBv(defaultNaN(f), f.width);
    for (unsigned i = e->numKids(); i-- > 0;) {
      const Expr *x = e->kid(i);
      t = b_.mkIte(fp(FpOp::IsNaN, {value(x, f, bits)}), quiet(bits(x), f), t);
    }
    return t;
  }

  Term convertedNaN(const Term &bits, const FloatFormat &from, const FloatFormat &to) {
    Term q = quiet(bits, from);
    Term sign = b_.mkExtract(from.width - 1, from.width - 1, q);
    Term fraction = b_.mkExtract(from.fractionBits - 1, 0, q);
    if (to.fractionBits > from.fractionBits)
      fraction = b_.mkConcat(fraction, b_.mkBv(0, to.fractionBits - from.fractionBits));
    else if (to.fractionBits < from.fractionBits)
      fraction = b_.mkExtract(from.fractionBits - 1, from.fractionBits - to.fractionBits, fraction);
    const unsigned headWidth = to.exponentBits + (to.explicitInteger ? 1 : 0);
    const u128 head = to.explicitInteger ? (to.exponentMask() << 1) | 1 : to.exponentMask();
    Term t = b_.mkConcat(sign, b_.mkConcat(b_.mkBv(head, headWidth), fraction));
    return b_.mkBvOr(t, b_.mkBv(to.quietBit(), to.width));
  }

  // x truncated to a signed `width`-bit integer; the integer indefinite out of range or NaN.
  Term truncateSigned(const Term &x, const FloatFormat &f, unsigned width) {
    Term t = fp(FpOp::RoundToIntegral, {x}, RoundingMode::TowardZero);
    const long double limit = std::ldexp(1.0L, int(width) - 1);
    Term inRange = b_.mkAnd(fp(FpOp::Leq, {constant(-limit, f), t}), fp(FpOp::Lt, {t, constant(limit, f)}));
    return b_.mkIte(inRange, fp(FpOp::ToSigned, {x}, RoundingMode::TowardZero, {}, width),
                    b_.mkBv(u128(1) << (width - 1), width));
  }

  Term cut(const Term &t, unsigned from, unsigned width) {
    return width == from ? t : b_.mkExtract(width - 1, 0, t);
  }

  Term toSigned(const Term &x, const FloatFormat &f, unsigned width) {
    const unsigned at = signedConversionWidth(width);
    return cut(truncateSigned(x, f, at), at, width);
  }

  Term toUnsigned(const Term &x, const FloatFormat &f, unsigned width) {
    if (width <= 16)
      return cut(truncateSigned(x, f, 32), 32, width);
    if (width <= 32)
      return cut(truncateSigned(x, f, 64), 64, width);
    if (width <= 64) {
      Term r = truncateSigned(x, f, 64);
      Term rest = truncateSigned(fp(FpOp::Sub, {x, constant(std::ldexp(1.0L, 63), f)}), f, 64);
      Term negative = b_.bvToBool(b_.mkExtract(63, 63, r));
      return cut(b_.mkIte(negative, b_.mkBvOr(r, rest), r), 64, width);
    }
    Term t = fp(FpOp::RoundToIntegral, {x}, RoundingMode::TowardZero);
    Term inRange = b_.mkAnd(fp(FpOp::Leq, {constant(0, f), t}),
                            fp(FpOp::Lt, {t, constant(std::ldexp(1.0L, int(width)), f)}));
    return b_.mkIte(inRange, fp(FpOp::ToUnsigned, {x}, RoundingMode::TowardZero, {}, width), b_.mkBv(0, width));
  }

  B &b_;
  TermMemo<Term> values_; // the float each node read as one stands for
};

} // namespace cairn::backend
