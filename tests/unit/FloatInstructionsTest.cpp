// Floating-point instructions on concrete operands against the host compiler's own arithmetic
// on the same C types: conversions from wide integers (rounded once), long double, and the
// multiply-adds.
#include "interpreter/FloatInstructions.h"

#include "cairn/expr/Assignment.h"

#include "FloatBits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

TEST(FloatInstructionsTest, IntegersConvertWithOneRounding) {
  // Half a float's last place plus a bit below double's precision: rounded to double first,
  // the tie that is left goes to even, down; rounded once, it goes up.
  std::vector<uint64_t> values = {(1ull << 63) | (1ull << 39) | 1, (1ull << 62) | (1ull << 38) | 1,
                                  (1ull << 55) | (1ull << 31) | 1};
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20000; ++i)
    values.push_back(rng() >> (rng() % 40));
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t u = values[i];
    int64_t s = i % 2 ? int64_t(u) : -int64_t(u >> 1);
    ASSERT_EQ(floatOnBits(FloatOp::FromUnsigned, 64, 32, u, 0, 0), bitsOf(float(u))) << u;
    ASSERT_EQ(floatOnBits(FloatOp::FromSigned, 64, 32, u128(s) & ~uint64_t(0), 0, 0), bitsOf(float(s))) << s;
    ASSERT_EQ(floatOnBits(FloatOp::FromUnsigned, 64, 64, u, 0, 0), bitsOf(double(u))) << u;
    ASSERT_EQ(floatOnBits(FloatOp::FromSigned, 64, 80, u128(s) & ~uint64_t(0), 0, 0), bitsOf((long double)s)) << s;
  }
}

TEST(FloatInstructionsTest, LongDoubleArithmeticAndConversions) {
  long double a = 1.0L / 3.0L, b = 7.25L;
  u128 x = bitsOf(a), y = bitsOf(b);
  EXPECT_EQ(floatOnBits(FloatOp::Add, 80, 80, x, y, 0), bitsOf(a + b));
  EXPECT_EQ(floatOnBits(FloatOp::Mul, 80, 80, x, y, 0), bitsOf(a * b));
  EXPECT_EQ(floatOnBits(FloatOp::Div, 80, 80, y, x, 0), bitsOf(b / a));
  EXPECT_EQ(floatOnBits(FloatOp::Truncate, 80, 64, x, 0, 0), bitsOf(double(a)));
  EXPECT_EQ(floatOnBits(FloatOp::Extend, 64, 80, bitsOf(0.1), 0, 0), bitsOf((long double)0.1));
  EXPECT_EQ(floatOnBits(FloatOp::ToSigned, 80, 32, bitsOf(-b), 0, 0), u128(uint32_t(-7)));
  // 80-bit precision is kept: a third in long double is not a third in double.
  EXPECT_NE(x, bitsOf((long double)(1.0 / 3.0)));
  EXPECT_EQ(floatOnBits(FloatOp::Sub, 80, 80, x, floatOnBits(FloatOp::Extend, 64, 80, bitsOf(1.0 / 3.0), 0, 0), 0),
            bitsOf(a - (long double)(1.0 / 3.0)));
  const unsigned olt = unsigned(FloatOp::CmpFirst) + 4, une = unsigned(FloatOp::CmpFirst) + 14;
  EXPECT_EQ(floatOnBits(FloatOp(olt), 80, 1, x, y, 0), 1u);
  EXPECT_EQ(floatOnBits(FloatOp(une), 80, 1, x, x, 0), 0u);
}

TEST(FloatInstructionsTest, MulAddRoundsTheProductFusedDoesNot) {
  // Products that round to 1 at the operand's precision: unfused, the sum is 0.
  double a = 1 + 0x1p-30, b = 1 - 0x1p-30;
  EXPECT_EQ(floatOnBits(FloatOp::MulAdd, 64, 64, bitsOf(a), bitsOf(b), bitsOf(-1.0)), bitsOf(0.0));
  EXPECT_EQ(floatOnBits(FloatOp::FusedMulAdd, 64, 64, bitsOf(a), bitsOf(b), bitsOf(-1.0)),
            bitsOf(std::fma(a, b, -1.0)));
  float fa = 1 + 0x1p-13f, fb = 1 - 0x1p-13f;
  EXPECT_EQ(floatOnBits(FloatOp::MulAdd, 32, 32, bitsOf(fa), bitsOf(fb), bitsOf(-1.0f)), bitsOf(0.0f));
  EXPECT_EQ(floatOnBits(FloatOp::FusedMulAdd, 32, 32, bitsOf(fa), bitsOf(fb), bitsOf(-1.0f)),
            bitsOf(std::fma(fa, fb, -1.0f)));
  long double la = 1 + 0x1p-40L, lb = 1 - 0x1p-40L;
  EXPECT_EQ(floatOnBits(FloatOp::MulAdd, 80, 80, bitsOf(la), bitsOf(lb), bitsOf(-1.0L)), bitsOf(0.0L));
  EXPECT_EQ(floatOnBits(FloatOp::FusedMulAdd, 80, 80, bitsOf(la), bitsOf(lb), bitsOf(-1.0L)),
            bitsOf(std::fma(la, lb, -1.0L)));
}

TEST(FloatInstructionsTest, AbsClearsTheSignBitAndMinMaxSkipNaN) {
  EXPECT_EQ(floatOnBits(FloatOp::Abs, 64, 64, bitsOf(-0.0), 0, 0), bitsOf(0.0));
  EXPECT_EQ(floatOnBits(FloatOp::Abs, 32, 32, bitsOf(-1.5f), 0, 0), bitsOf(1.5f));
  EXPECT_EQ(floatOnBits(FloatOp::Abs, 80, 80, bitsOf(-3.25L), 0, 0), bitsOf(3.25L));
  EXPECT_EQ(floatOnBits(FloatOp::MinNum, 64, 64, bitsOf(NAN * 1.0), bitsOf(2.0), 0), bitsOf(2.0));
  EXPECT_EQ(floatOnBits(FloatOp::MaxNum, 32, 32, bitsOf(-1.0f), bitsOf(NAN), 0), bitsOf(-1.0f));
  EXPECT_EQ(floatOnBits(FloatOp::MaxNum, 64, 64, bitsOf(-1.0), bitsOf(3.0), 0), bitsOf(3.0));
}

// llvm.copysign (musl's atan, expm1, sinh): the magnitude of one, the sign of the other, on the
// bits of every format, NaN and negative zero included.
TEST(FloatInstructionsTest, CopySignTakesTheSecondOperandsSign) {
  EXPECT_EQ(floatOnBits(FloatOp::CopySign, 64, 64, bitsOf(2.5), bitsOf(-0.0), 0), bitsOf(-2.5));
  EXPECT_EQ(floatOnBits(FloatOp::CopySign, 32, 32, bitsOf(-1.5f), bitsOf(3.0f), 0), bitsOf(1.5f));
  EXPECT_EQ(floatOnBits(FloatOp::CopySign, 80, 80, bitsOf(7.0L), bitsOf(-1.0L), 0), bitsOf(-7.0L));
  EXPECT_EQ(floatOnBits(FloatOp::CopySign, 64, 64, bitsOf(NAN * 1.0), bitsOf(-1.0), 0),
            bitsOf(NAN * 1.0) | (u128(1) << 63));
}

// The rounding intrinsics against the host's C functions on random values of every format
// (quiet NaNs only: musl passes a signalling one unchanged where glibc quiets it), and sqrt.
TEST(FloatInstructionsTest, RoundingToIntegralMatchesTheHostsFunctions) {
  std::mt19937_64 rng(4);
  auto check = [&](auto x) {
    using F = decltype(x);
    const unsigned w = widthOf<F>();
    const u128 b = bitsOf(x);
    ASSERT_EQ(floatOnBits(FloatOp::Floor, w, w, b, 0, 0), bitsOf(F(std::floor(x)))) << double(x);
    ASSERT_EQ(floatOnBits(FloatOp::Ceil, w, w, b, 0, 0), bitsOf(F(std::ceil(x)))) << double(x);
    ASSERT_EQ(floatOnBits(FloatOp::Trunc, w, w, b, 0, 0), bitsOf(F(std::trunc(x)))) << double(x);
    ASSERT_EQ(floatOnBits(FloatOp::Round, w, w, b, 0, 0), bitsOf(F(std::round(x)))) << double(x);
    ASSERT_EQ(floatOnBits(FloatOp::RoundEven, w, w, b, 0, 0), bitsOf(F(std::rint(x)))) << double(x);
    ASSERT_EQ(floatOnBits(FloatOp::Sqrt, w, w, b, 0, 0), bitsOf(F(std::sqrt(x)))) << double(x);
    // Out of range and NaN: the integer indefinite, as cvtsd2si gives it.
    const bool inRange = std::fabs(x) < F(9.2e18);
    const int64_t indefinite = INT64_MIN;
    ASSERT_EQ(floatOnBits(FloatOp::LRound, w, 64, b, 0, 0), u128(uint64_t(inRange ? std::llround(x) : indefinite)))
        << double(x);
    ASSERT_EQ(floatOnBits(FloatOp::LRint, w, 64, b, 0, 0), u128(uint64_t(inRange ? std::llrint(x) : indefinite)))
        << double(x);
  };
  const double specials[] = {0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, -0.0, 0.0, INFINITY, -INFINITY, NAN,
                              4503599627370497.0, 1e300, 5e-324};
  for (double d : specials) {
    check(float(d));
    check(d);
    check((long double)d);
  }
  for (int i = 0; i < 20000; ++i) {
    const double d = std::ldexp(double(int64_t(rng())), -int(rng() % 80));
    check(float(d));
    check(d);
    check((long double)d + std::ldexp((long double)(rng() % 1024), -70));
  }
}

} // namespace

namespace {

// Every instruction, on symbols, evaluates to what it computes on their bits: the symbolic
// path and the concrete fast path are one semantics.
TEST(FloatInstructionsTest, ExpressionsEvaluateToTheConcreteResult) {
  std::mt19937_64 rng(3);
  ExprContext ctx;
  const unsigned formats[] = {32, 64, 80};
  const std::vector<u128> specials32 = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0x7f800001u, 1,
                                        0x3f800000u, 0xbf800000u};
  for (unsigned op = 0; op < unsigned(FloatOp::CmpFirst) + 16; ++op) {
    for (unsigned fw : formats) {
      const FloatOp fop = FloatOp(op);
      const bool fromInt = fop == FloatOp::FromSigned || fop == FloatOp::FromUnsigned;
      const bool toInt = fop == FloatOp::ToSigned || fop == FloatOp::ToUnsigned || fop == FloatOp::LRint ||
                         fop == FloatOp::LRound;
      const unsigned ow = fromInt ? 32 : fw;
      unsigned rw = fw;
      if (toInt)
        rw = fop == FloatOp::LRint || fop == FloatOp::LRound ? 64 : 32;
      else if (fop >= FloatOp::CmpFirst)
        rw = 1;
      else if (fop == FloatOp::Extend || fop == FloatOp::Truncate)
        rw = fw == 64 ? 32 : 64;
      const std::string tag = std::to_string(op) + "_" + std::to_string(fw);
      ExprRef sym[3];
      for (int i = 0; i < 3; ++i)
        sym[i] = ctx.symbol(ctx.declareSymbol("s" + tag + "_" + std::to_string(i), ow, SymbolClass::Input));
      ExprRef e = floatOnExprs(ctx, fop, ow, rw, sym[0], sym[1], sym[2]);
      for (int n = 0; n < 200; ++n) {
        u128 v[3];
        Assignment a;
        for (int i = 0; i < 3; ++i) {
          v[i] = (u128(rng()) << 64 | rng()) & widthMask(ow);
          if (ow == 32 && rng() % 2)
            v[i] = specials32[rng() % specials32.size()];
          if (ow == 64 && rng() % 2)
            v[i] = bitsOf(double(int64_t(rng() % 200) - 100) / 4);
          a.setScalar(sym[i]->symbol(), v[i]);
        }
        ASSERT_EQ(evaluate(e.get(), a), floatOnBits(fop, ow, rw, v[0], v[1], v[2]) & widthMask(rw))
            << "op " << op << " format " << fw;
      }
    }
  }
}

} // namespace
