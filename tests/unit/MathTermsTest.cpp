// musl's math functions as terms (interpreter/MathTerms.h), on symbols and evaluated at random
// points of every format, against the host's C library where the two libraries agree (glibc
// and musl differ only in what the tests below spell out: musl leaves frexp's exponent alone
// for infinities and NaNs, and orders fmin's and fmax's zeros), and folded on constants to the
// same bits.
#include "interpreter/MathTerms.h"

#include "cairn/expr/Assignment.h"
#include "cairn/expr/ExprContext.h"

#include "FloatBits.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <random>

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

// Random values of a format: any bits (NaNs, subnormals, infinities included), and numbers of
// moderate size with fractions, which the interesting cases need.
// An x87 value's integer bit is set exactly when its exponent is not zero (the encodings that
// are not numbers are another test's subject).
template <typename F> F randomValue(std::mt19937_64 &rng) {
  switch (rng() % 4) {
  case 0: {
    u128 bits = (u128(rng()) << 64 | rng()) & widthMask(widthOf<F>());
    if (widthOf<F>() == 80) {
      const u128 integerBit = u128(1) << 63;
      bits = (bits & ~integerBit) | ((bits >> 64) & 0x7fff ? integerBit : 0);
    }
    return valueOf<F>(bits);
  }
  case 1: return F(int64_t(rng() % 2001) - 1000) / F(8);
  case 2: return std::ldexp(F(int64_t(rng() >> 11)) / F(1ull << 52), int(rng() % 200) - 100);
  default: return std::ldexp(F(1), int(rng() % 4) - 2) * (rng() % 2 ? F(-1) : F(1));
  }
}

template <typename F> bool signalling(F x) {
  const unsigned fractionBits = widthOf<F>() == 32 ? 23 : widthOf<F>() == 64 ? 52 : 63;
  return std::isnan(x) && !((bitsOf(x) >> (fractionBits - 1)) & 1);
}

class MathTermsTest : public ::testing::Test {
protected:
  ExprContext ctx;
  std::mt19937_64 rng{11};

  ExprRef symbol(const std::string &name, unsigned width) {
    return ctx.symbol(ctx.declareSymbol(name, width, SymbolClass::Input));
  }
  // `e` evaluated where the symbols take `values`, and built again on the values as constants
  // (which must fold to the same bits).
  template <class Build>
  u128 both(const std::vector<ExprRef> &symbols, const std::vector<u128> &values, Build build) {
    Assignment a;
    std::vector<ExprRef> constants;
    for (size_t i = 0; i < symbols.size(); ++i) {
      a.setScalar(symbols[i]->symbol(), values[i]);
      constants.push_back(ctx.constant(values[i], symbols[i]->width()));
    }
    const u128 evaluated = evaluate(build(symbols).get(), a);
    ExprRef folded = build(constants);
    EXPECT_TRUE(folded->isConstant());
    EXPECT_EQ(folded->value(), evaluated);
    return evaluated;
  }

  template <typename F> void checkFormat() {
    const unsigned w = widthOf<F>();
    const std::string tag = std::to_string(w);
    ExprRef x = symbol("x" + tag, w), y = symbol("y" + tag, w), n = symbol("n" + tag, 32);
    const ExprRef frexpFraction = frexpTerms(ctx, x).fraction, frexpExponent = frexpTerms(ctx, x).exponent;
    const ExprRef keeps = frexpTerms(ctx, x).keepsExponent;
    for (int i = 0; i < 4000; ++i) {
      const F a = randomValue<F>(rng), b = randomValue<F>(rng);
      const u128 ab = bitsOf(a), bb = bitsOf(b);
      const int k = int(rng() % (w == 80 ? 33000 : 2500)) - (w == 80 ? 16500 : 1250);
      // glibc quiets a signalling NaN operand, musl returns the other operand.
      const bool zeros = a == 0 && b == 0 && std::signbit(a) != std::signbit(b);
      if (!zeros && !signalling(a) && !signalling(b)) {
        ASSERT_EQ(both({x, y}, {ab, bb}, [&](auto &v) { return minMaxTerm(ctx, false, v[0], v[1]); }),
                  bitsOf(std::fmin(a, b)) & widthMask(w)) << double(a) << " " << double(b);
        ASSERT_EQ(both({x, y}, {ab, bb}, [&](auto &v) { return minMaxTerm(ctx, true, v[0], v[1]); }),
                  bitsOf(std::fmax(a, b)) & widthMask(w));
      }
      if (!std::isnan(a) && !std::isnan(b)) {
        ASSERT_EQ(both({x, y}, {ab, bb}, [&](auto &v) { return positiveDifferenceTerm(ctx, v[0], v[1]); }),
                  bitsOf(std::fdim(a, b)));
      }
      if (!std::isnan(a)) {
        ASSERT_EQ(both({x, n}, {ab, u128(uint32_t(k))}, [&](auto &v) { return scaledTerm(ctx, v[0], v[1]); }),
                  bitsOf(std::scalbn(a, k))) << double(a) << " * 2^" << k;
      }
      Assignment at;
      at.setScalar(x->symbol(), ab);
      if (std::isfinite(a)) {
        int e = INT_MIN;
        const F fraction = std::frexp(a, &e);
        ASSERT_EQ(evaluate(frexpFraction.get(), at), bitsOf(fraction)) << double(a);
        ASSERT_EQ(evaluate(frexpExponent.get(), at), u128(uint32_t(e))) << double(a);
        ASSERT_EQ(evaluate(keeps.get(), at), 0u);
      } else {
        ASSERT_EQ(evaluate(frexpFraction.get(), at), ab);
        ASSERT_EQ(evaluate(keeps.get(), at), 1u);
      }
      F integral{};
      const F fraction = std::modf(a, &integral);
      const auto [fractionTerm, integralTerm] = modfTerms(ctx, x);
      ASSERT_EQ(evaluate(fractionTerm.get(), at), std::isnan(a) ? ab : bitsOf(fraction)) << double(a);
      ASSERT_EQ(evaluate(integralTerm.get(), at), std::isnan(a) ? ab : bitsOf(integral)) << double(a);
    }
  }
};

TEST_F(MathTermsTest, FloatMatchesTheCLibrary) { checkFormat<float>(); }
TEST_F(MathTermsTest, DoubleMatchesTheCLibrary) { checkFormat<double>(); }
TEST_F(MathTermsTest, LongDoubleMatchesTheCLibrary) { checkFormat<long double>(); }

// Where musl and glibc part: musl's fmin takes the negative of two zeros and fmax the positive
// one; NaN operands give the other operand, and two NaNs the second.
TEST_F(MathTermsTest, MinAndMaxOrderZerosBySign) {
  ExprRef pz = ctx.constant(bitsOf(0.0), 64), nz = ctx.constant(bitsOf(-0.0), 64);
  EXPECT_EQ(minMaxTerm(ctx, false, pz, nz)->value(), bitsOf(-0.0));
  EXPECT_EQ(minMaxTerm(ctx, false, nz, pz)->value(), bitsOf(-0.0));
  EXPECT_EQ(minMaxTerm(ctx, true, nz, pz)->value(), bitsOf(0.0));
  ExprRef nan = ctx.constant(bitsOf(std::nan("1")), 64), other = ctx.constant(bitsOf(std::nan("2")), 64);
  EXPECT_EQ(minMaxTerm(ctx, false, nan, other)->value(), bitsOf(std::nan("2")));
}

// ldexp at the edges: a subnormal result rounds once; far out of range gives 0 or infinity
// with x's sign; a 64-bit exponent (scalbln) far beyond int's range clamps.
TEST_F(MathTermsTest, ScalingRoundsOnceAndClamps) {
  auto scale = [&](double x, int64_t n) {
    return valueOf<double>(scaledTerm(ctx, ctx.constant(bitsOf(x), 64), ctx.constant(u128(uint64_t(n)), 64))->value());
  };
  EXPECT_EQ(bitsOf(scale(1.5, -1074)), bitsOf(std::scalbn(1.5, -1074))); // 2^-1074 * 1.5 rounds to even
  EXPECT_EQ(bitsOf(scale(0x1.fffffffffffffp0, -1023)), bitsOf(std::scalbn(0x1.fffffffffffffp0, -1023)));
  EXPECT_EQ(bitsOf(scale(-3.0, int64_t(1) << 40)), bitsOf(-double(INFINITY)));
  EXPECT_EQ(bitsOf(scale(-3.0, -(int64_t(1) << 40))), bitsOf(-0.0));
  EXPECT_EQ(bitsOf(scale(5e-324, 2000)), bitsOf(std::scalbn(5e-324, 2000)));
}

} // namespace
