#include "interpreter/HostFloat.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace cairn::engine {

namespace {

static_assert(std::numeric_limits<long double>::digits == 64 && sizeof(long double) >= 10,
              "x86_fp80 needs the host's long double to be the x87 80-bit format");

// A float, double or x86_fp80 register's bits as the host type F, and back.
template <typename F>
F decode(u128 bits, unsigned width) {
  if (width == 32) {
    float x;
    uint32_t v = uint32_t(bits);
    std::memcpy(&x, &v, 4);
    return F(x);
  }
  if (width == 64) {
    double x;
    uint64_t v = uint64_t(bits);
    std::memcpy(&x, &v, 8);
    return F(x);
  }
  long double x = 0;
  std::memcpy(&x, &bits, 10); // the 80 bits, little-endian, as the register holds them
  return F(x);
}

template <typename F>
u128 encode(F d, unsigned width) {
  if (width == 32) {
    float x = float(d);
    uint32_t v;
    std::memcpy(&v, &x, 4);
    return v;
  }
  if (width == 64) {
    double x = double(d);
    uint64_t v;
    std::memcpy(&v, &x, 8);
    return v;
  }
  long double x = d;
  u128 v = 0;
  std::memcpy(&v, &x, 10);
  return v;
}

template <typename F>
u128 compute(FloatOp op, unsigned in, unsigned out, u128 aBits, u128 bBits, u128 cBits) {
  F x = decode<F>(aBits, in), y = decode<F>(bBits, in);
  // MulAdd rounds the product to the operand type before adding, as a native x86-64 build
  // (no FMA) does; the volatile keeps the host compiler from fusing the two.
  auto product = [&] {
    volatile F r = x * y;
    return decode<F>(encode<F>(F(r), in), in);
  };
  auto fused = [&]() -> F {
    F z = decode<F>(cBits, in);
    if (in == 32) // rounded once to float, not to double and then to float
      return std::fma(float(x), float(y), float(z));
    return std::fma(x, y, z);
  };
  switch (op) {
  case FloatOp::Add: return encode<F>(x + y, out);
  case FloatOp::Sub: return encode<F>(x - y, out);
  case FloatOp::Mul: return encode<F>(x * y, out);
  case FloatOp::Div: return encode<F>(x / y, out);
  case FloatOp::Rem: return encode<F>(std::fmod(x, y), out);
  case FloatOp::Neg: return encode<F>(-x, out);
  case FloatOp::ToSigned: return u128(__int128(x)) & widthMask(out);
  case FloatOp::ToUnsigned: return u128(x < 0 ? 0 : x) & widthMask(out);
  // Straight to float: through double first, a wide integer would be rounded twice.
  case FloatOp::FromSigned:
    return out == 32 ? encode<float>(float(toSigned(aBits, in)), 32) : encode<F>(F(toSigned(aBits, in)), out);
  case FloatOp::FromUnsigned: return out == 32 ? encode<float>(float(aBits), 32) : encode<F>(F(aBits), out);
  case FloatOp::Extend:
  case FloatOp::Truncate: return encode<F>(x, out);
  case FloatOp::MulAdd: return encode<F>(product() + decode<F>(cBits, in), out);
  case FloatOp::FusedMulAdd: return encode<F>(fused(), out);
  case FloatOp::Abs: return aBits & widthMask(in - 1); // exact, NaNs included
  case FloatOp::MinNum: return encode<F>(std::fmin(x, y), out);
  case FloatOp::MaxNum: return encode<F>(std::fmax(x, y), out);
  case FloatOp::CopySign: // exact on the bits, NaNs included
    return (aBits & widthMask(in - 1)) | (bBits & (u128(1) << (in - 1)));
  default: {
    unsigned pred = unsigned(op) - unsigned(FloatOp::CmpFirst);
    bool unordered = std::isnan(x) || std::isnan(y);
    bool lt = x < y, eq = x == y, gt = x > y;
    // LLVM's predicate bits: 1 = equal, 2 = greater, 4 = less, 8 = unordered.
    return ((pred & 1) && eq) || ((pred & 2) && gt) || ((pred & 4) && lt) || ((pred & 8) && unordered);
  }
  }
}

} // namespace

u128 hostFloatOp(FloatOp op, unsigned operandWidth, unsigned resultWidth, u128 a, u128 b, u128 c) {
  // float and double stay in double, where long double's extra precision would round twice.
  const bool takesInteger = op == FloatOp::FromSigned || op == FloatOp::FromUnsigned;
  const bool givesInteger = op == FloatOp::ToSigned || op == FloatOp::ToUnsigned || op >= FloatOp::CmpFirst;
  const bool extended = (!takesInteger && operandWidth == 80) || (!givesInteger && resultWidth == 80);
  return extended ? compute<long double>(op, operandWidth, resultWidth, a, b, c)
                  : compute<double>(op, operandWidth, resultWidth, a, b, c);
}

} // namespace cairn::engine
