// The floating-point kinds on concrete encodings, computed with the host's arithmetic: float
// and double in double (one rounding more, which is innocuous for +, -, *, / and sqrt, since
// double has more than twice float's precision plus two bits), long double in the x87's own.
// NaN results are replaced by the rule of Float.h, so that they do not depend on the order in
// which the host compiler put commutative operands.
#include "cairn/expr/Float.h"

#include "cairn/expr/ExprContext.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace cairn {

static_assert(std::numeric_limits<long double>::digits == 64 && sizeof(long double) >= 10,
              "the 80-bit format needs the host's long double to be x87's");

std::optional<FloatFormat> floatFormat(unsigned width) {
  switch (width) {
  case 32: return FloatFormat{32, 8, 23, false};
  case 64: return FloatFormat{64, 11, 52, false};
  case 80: return FloatFormat{80, 15, 63, true};
  default: return std::nullopt;
  }
}

FloatFormat requireFloatFormat(unsigned width) {
  if (auto f = floatFormat(width))
    return *f;
  throw MalformedExpr("a " + std::to_string(width) + "-bit value is not a float encoding");
}

bool isFloatValued(Kind k) {
  switch (k) {
  case Kind::FAdd:
  case Kind::FSub:
  case Kind::FMul:
  case Kind::FDiv:
  case Kind::FRem:
  case Kind::FFma:
  case Kind::FSqrt:
  case Kind::FRound:
  case Kind::FConvert:
  case Kind::SIntToF:
  case Kind::UIntToF: return true;
  default: return false;
  }
}

bool isFloatKind(Kind k) {
  return isFloatValued(k) || k == Kind::FToSInt || k == Kind::FToUInt || k == Kind::FOeq ||
         k == Kind::FOlt || k == Kind::FOle;
}

unsigned floatArity(Kind k) {
  switch (k) {
  case Kind::FFma: return 3;
  case Kind::FAdd:
  case Kind::FSub:
  case Kind::FMul:
  case Kind::FDiv:
  case Kind::FRem:
  case Kind::FOeq:
  case Kind::FOlt:
  case Kind::FOle: return 2;
  default: return 1;
  }
}

namespace {

unsigned exponentShift(const FloatFormat &f) { return f.width - 1 - f.exponentBits; }

} // namespace

bool isNaNEncoding(u128 bits, const FloatFormat &f) {
  const unsigned e = biasedExponent(bits, f);
  const bool allOnes = e == f.exponentMask();
  if (!f.explicitInteger)
    return allOnes && (bits & f.fractionMask()) != 0;
  const bool integer = (bits & f.integerBit()) != 0;
  return (e != 0 && !integer) || (allOnes && (bits & f.fractionMask()) != 0);
}

u128 defaultNaN(const FloatFormat &f) {
  return f.signBit() | (f.exponentMask() << exponentShift(f)) | f.integerBit() | f.quietBit();
}

u128 quietNaN(u128 bits, const FloatFormat &f) {
  if (f.explicitInteger && !(bits & f.integerBit()))
    return defaultNaN(f);
  return bits | f.quietBit();
}

u128 convertNaN(u128 bits, const FloatFormat &from, const FloatFormat &to) {
  const u128 quiet = quietNaN(bits, from);
  u128 fraction = quiet & from.fractionMask();
  if (to.fractionBits >= from.fractionBits)
    fraction <<= to.fractionBits - from.fractionBits;
  else
    fraction >>= from.fractionBits - to.fractionBits;
  const u128 sign = (quiet & from.signBit()) ? to.signBit() : 0;
  return sign | (to.exponentMask() << exponentShift(to)) | to.integerBit() | fraction | to.quietBit();
}

namespace {

long double decode(u128 bits, const FloatFormat &f) {
  if (f.width == 32) {
    float x;
    uint32_t v = uint32_t(bits);
    std::memcpy(&x, &v, 4);
    return x;
  }
  if (f.width == 64) {
    double x;
    uint64_t v = uint64_t(bits);
    std::memcpy(&x, &v, 8);
    return x;
  }
  long double x = 0;
  std::memcpy(&x, &bits, 10); // the 80 bits, little-endian, as the register holds them
  return x;
}

// The first NaN among the operands, made quiet, or the default NaN.
u128 nanResult(const FloatFormat &f, unsigned n, u128 a, u128 b, u128 c) {
  const u128 ops[3] = {a, b, c};
  for (unsigned i = 0; i < n; ++i)
    if (isNaNEncoding(ops[i], f))
      return quietNaN(ops[i], f);
  return defaultNaN(f);
}

long double roundIntegral(long double x, RoundingMode mode) {
  switch (mode) {
  case RoundingMode::NearestEven: return std::nearbyint(x);
  case RoundingMode::NearestAway: return std::round(x);
  case RoundingMode::Upward: return std::ceil(x);
  case RoundingMode::Downward: return std::floor(x);
  case RoundingMode::TowardZero: return std::trunc(x);
  }
  throw MalformedExpr("unknown rounding mode");
}

// An arithmetic kind in the host type T (double for float and double, long double for x87).
template <typename T>
long double arithmetic(Kind kind, const FloatFormat &f, unsigned aux, T x, T y, T z) {
  switch (kind) {
  case Kind::FAdd: return x + y;
  case Kind::FSub: return x - y;
  case Kind::FMul: return x * y;
  case Kind::FDiv: return x / y;
  case Kind::FRem: return std::fmod(x, y);
  case Kind::FSqrt: return std::sqrt(x);
  case Kind::FRound: return roundIntegral(x, RoundingMode(aux));
  case Kind::FFma:
    if (f.width == 32) // rounded once to float, not to double and then to float
      return std::fma(float(x), float(y), float(z));
    return std::fma(x, y, z);
  default: throw MalformedExpr(std::string("not a float arithmetic kind: ") + kindName(kind));
  }
}

// x truncated to a signed integer of `width` bits, or the integer indefinite when out of range.
u128 truncateSigned(long double x, bool nan, unsigned width) {
  const u128 indefinite = u128(1) << (width - 1);
  if (nan)
    return indefinite;
  const long double t = std::trunc(x), limit = std::ldexp(1.0L, int(width) - 1);
  if (!(t >= -limit && t < limit))
    return indefinite;
  return u128(static_cast<__int128>(t)) & widthMask(width);
}

u128 floatToSigned(u128 a, const FloatFormat &f, unsigned width) {
  return truncateSigned(decode(a, f), isNaNEncoding(a, f), signedConversionWidth(width)) & widthMask(width);
}

u128 floatToUnsigned(u128 a, const FloatFormat &f, unsigned width) {
  const bool nan = isNaNEncoding(a, f);
  const long double x = decode(a, f);
  if (width <= 16) // promoted to a signed 32-bit conversion
    return truncateSigned(x, nan, 32) & widthMask(width);
  if (width <= 32) // a signed 64-bit conversion, cut
    return truncateSigned(x, nan, 64) & widthMask(width);
  if (width <= 64) {
    // The 64-bit sequence: the signed conversion, or'ed with the conversion of x - 2^63 (in
    // x's format) when the first came out negative.
    u128 r = truncateSigned(x, nan, 64);
    if (r >> 63) {
      const u128 twoTo63 = encodeFloat(std::ldexp(1.0L, 63), f);
      const u128 rest = foldFloat(Kind::FSub, f.width, f.width, 0, a, twoTo63);
      r |= truncateSigned(decode(rest, f), isNaNEncoding(rest, f), 64);
    }
    return r & widthMask(width);
  }
  const long double t = std::trunc(x);
  if (nan || !(t >= 0 && t < std::ldexp(1.0L, int(width))))
    return 0;
  return u128(t) & widthMask(width);
}

template <typename Int> u128 fromInteger(Int v, const FloatFormat &f) {
  // Straight to the format: through a wider one first, a wide integer would be rounded twice.
  if (f.width == 32)
    return encodeFloat(static_cast<float>(v), f);
  if (f.width == 64)
    return encodeFloat(static_cast<double>(v), f);
  return encodeFloat(static_cast<long double>(v), f);
}

} // namespace

long double decodeFloat(u128 bits, const FloatFormat &f) { return decode(bits, f); }

u128 encodeFloat(long double value, const FloatFormat &f) {
  if (f.width == 32) {
    float x = float(value);
    uint32_t v;
    std::memcpy(&v, &x, 4);
    return v;
  }
  if (f.width == 64) {
    double x = double(value);
    uint64_t v;
    std::memcpy(&v, &x, 8);
    return v;
  }
  u128 v = 0;
  std::memcpy(&v, &value, 10);
  return v;
}

u128 foldFloat(Kind kind, unsigned width, unsigned operandWidth, unsigned aux, u128 a, u128 b, u128 c) {
  switch (kind) {
  case Kind::FConvert: {
    const FloatFormat from = requireFloatFormat(operandWidth), to = requireFloatFormat(width);
    return isNaNEncoding(a, from) ? convertNaN(a, from, to) : encodeFloat(decode(a, from), to);
  }
  case Kind::FToSInt: return floatToSigned(a, requireFloatFormat(operandWidth), width);
  case Kind::FToUInt: return floatToUnsigned(a, requireFloatFormat(operandWidth), width);
  case Kind::SIntToF: return fromInteger(toSigned(a, operandWidth), requireFloatFormat(width));
  case Kind::UIntToF: return fromInteger(a & widthMask(operandWidth), requireFloatFormat(width));
  case Kind::FOeq:
  case Kind::FOlt:
  case Kind::FOle: {
    const FloatFormat f = requireFloatFormat(operandWidth);
    if (isNaNEncoding(a, f) || isNaNEncoding(b, f))
      return 0;
    const long double x = decode(a, f), y = decode(b, f);
    return kind == Kind::FOeq ? x == y : kind == Kind::FOlt ? x < y : x <= y;
  }
  default: break;
  }
  const FloatFormat f = requireFloatFormat(width);
  const long double r = f.width == 80
                            ? arithmetic<long double>(kind, f, aux, decode(a, f), decode(b, f), decode(c, f))
                            : arithmetic<double>(kind, f, aux, double(decode(a, f)), double(decode(b, f)),
                                                 double(decode(c, f)));
  const u128 bits = encodeFloat(r, f);
  return isNaNEncoding(bits, f) ? nanResult(f, floatArity(kind), a, b, c) : bits;
}

} // namespace cairn
