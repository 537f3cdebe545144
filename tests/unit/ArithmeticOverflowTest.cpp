// The overflow flag of *.with.overflow at every width, checked against the compiler's own
// __builtin_*_overflow on random and edge-case operands: folded from constants, and built over
// two symbols or a symbol and a constant then evaluated (so the symbolic construction and the
// simplifier's rewrites of it are checked too).
#include "interpreter/ArithmeticOverflow.h"

#include "cairn/expr/Assignment.h"

#include <gtest/gtest.h>

#include <random>
#include <type_traits>
#include <vector>

using namespace cairn;
using namespace cairn::engine;

namespace {

u128 mask(unsigned w) { return w == 128 ? ~u128(0) : (u128(1) << w) - 1; }

// The reference: the builtin on the C type of that width and signedness.
template <typename T>
bool referenceOverflow(Kind op, u128 a, u128 b) {
  T x = T(a), y = T(b), r;
  switch (op) {
  case Kind::Add: return __builtin_add_overflow(x, y, &r);
  case Kind::Sub: return __builtin_sub_overflow(x, y, &r);
  default: return __builtin_mul_overflow(x, y, &r);
  }
}

bool referenceOverflow(unsigned w, bool isSigned, Kind op, u128 a, u128 b) {
  switch (w) {
  case 8: return isSigned ? referenceOverflow<int8_t>(op, a, b) : referenceOverflow<uint8_t>(op, a, b);
  case 16: return isSigned ? referenceOverflow<int16_t>(op, a, b) : referenceOverflow<uint16_t>(op, a, b);
  case 32: return isSigned ? referenceOverflow<int32_t>(op, a, b) : referenceOverflow<uint32_t>(op, a, b);
  case 64: return isSigned ? referenceOverflow<int64_t>(op, a, b) : referenceOverflow<uint64_t>(op, a, b);
  default: return isSigned ? referenceOverflow<__int128>(op, a, b) : referenceOverflow<u128>(op, a, b);
  }
}

// Operands that sit on the borders: 0, ±1, ±2, the extremes and their neighbours, the powers of
// two around half the width (where products start to overflow), and random ones.
std::vector<u128> interestingValues(unsigned w, std::mt19937_64 &rng) {
  const u128 m = mask(w), signBit = u128(1) << (w - 1);
  std::vector<u128> v = {0, 1, 2, 3, m, m - 1, signBit, signBit - 1, signBit + 1, signBit - 2};
  for (unsigned half : {w / 2 - 1, w / 2, w / 2 + 1}) {
    u128 p = u128(1) << half;
    for (u128 x : {p, p - 1, p + 1, (0 - p) & m, (0 - p - 1) & m})
      v.push_back(x);
  }
  if (w == 128) // the 64-bit halves the multiplication splits into
    for (u128 x : {u128(1) << 64, (u128(1) << 64) - 1, ~u128(0) >> 64 << 63, u128(1) << 127 | 1})
      v.push_back(x);
  for (int i = 0; i < 24; ++i) {
    u128 r = (u128(rng()) << 64 | rng()) & m;
    v.push_back(r);
    v.push_back(r >> (rng() % w)); // small magnitudes, where products may just fit
    v.push_back((0 - (r >> (rng() % w))) & m);
  }
  return v;
}

class ArithmeticOverflowTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(ArithmeticOverflowTest, FlagMatchesTheBuiltins) {
  const unsigned w = GetParam();
  ExprContext ctx;
  std::mt19937_64 rng(w);
  std::vector<u128> values = interestingValues(w, rng);
  ExprRef sa = ctx.symbol(ctx.declareSymbol("a", w, SymbolClass::Input));
  ExprRef sb = ctx.symbol(ctx.declareSymbol("b", w, SymbolClass::Input));
  const SymbolDecl *da = ctx.findSymbol("a"), *db = ctx.findSymbol("b");
  unsigned checked = 0, overflows = 0;
  for (Kind op : {Kind::Add, Kind::Sub, Kind::Mul})
    for (bool isSigned : {false, true}) {
      ExprRef symbolic = overflowFlag(ctx, op, isSigned, sa, sb);
      ASSERT_EQ(symbolic->width(), 1u);
      for (u128 a : values)
        for (u128 b : values) {
          bool expected = referenceOverflow(w, isSigned, op, a, b);
          ExprRef folded = overflowFlag(ctx, op, isSigned, ctx.constant(a, w), ctx.constant(b, w));
          ASSERT_TRUE(folded->isConstant());
          Assignment model;
          model.setScalar(da, a);
          model.setScalar(db, b);
          auto describe = [&] {
            return "w=" + std::to_string(w) + (isSigned ? " signed " : " unsigned ") + "op=" +
                   std::to_string(int(op)) + " a=" + std::to_string(uint64_t(a >> 64)) + ":" +
                   std::to_string(uint64_t(a)) + " b=" + std::to_string(uint64_t(b >> 64)) + ":" +
                   std::to_string(uint64_t(b));
          };
          ASSERT_EQ(folded->value() != 0, expected) << "folded " << describe();
          ASSERT_EQ(evaluate(symbolic.get(), model) != 0, expected) << "symbolic " << describe();
          ExprRef withConstant = overflowFlag(ctx, op, isSigned, sa, ctx.constant(b, w));
          ASSERT_EQ(evaluate(withConstant.get(), model) != 0, expected) << "constant b " << describe();
          ++checked;
          overflows += expected;
        }
    }
  // Both outcomes occur often enough for the comparison to mean something.
  EXPECT_GT(overflows, checked / 10);
  EXPECT_LT(overflows, checked - checked / 10);
}

INSTANTIATE_TEST_SUITE_P(Widths, ArithmeticOverflowTest, ::testing::Values(8u, 16u, 32u, 64u, 128u));

} // namespace
