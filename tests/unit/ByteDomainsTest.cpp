// The values single input bytes may take under literals (ByteDomains.h): each literal's values
// against the evaluator's, and a conjunction's bytes emptied by a contradicting literal.
#include "ByteDomains.h"

#include "cairn/expr/Assignment.h"
#include "cairn/expr/ExprContext.h"

#include <gtest/gtest.h>

using namespace cairn;

namespace {

struct ByteDomainsTest : ::testing::Test {
  ExprContext ctx;
  const SymbolDecl *arg = ctx.declareArray("arg", 8, 64);
  ExprRef array = ctx.symbol(arg);
  ExprRef byte(unsigned i) { return ctx.select(array, ctx.constant(i, 64)); }
  ExprRef wide(unsigned i) { return ctx.sext(byte(i), 32); }
  ExprRef c32(unsigned v) { return ctx.constant(v, 32); }
  ByteDomains domains;

  // The values of byte `i` under which `literal` holds, by the evaluator.
  std::bitset<256> byEvaluator(const ExprRef &literal, unsigned i) {
    std::bitset<256> out;
    Assignment a;
    a.setArray(arg, std::vector<u128>(i + 1, 0));
    for (unsigned v = 0; v < 256; ++v) {
      a.setElement(arg, i, v);
      out[v] = evaluatesTrue(literal.get(), a);
    }
    return out;
  }
};

// A C program's test of a char: '0' <= c (signed: the bytes from 128 up are negative).
TEST_F(ByteDomainsTest, ALiteralAllowsTheValuesItHoldsFor) {
  ExprRef atLeastZero = ctx.sle(c32('0'), wide(3));
  const std::bitset<256> *values = domains.valuesOf(atLeastZero);
  ASSERT_NE(values, nullptr);
  EXPECT_EQ(values->count(), 128u - '0');
  EXPECT_TRUE((*values)['0']);
  EXPECT_TRUE((*values)[127]);
  EXPECT_FALSE((*values)[128]) << "negative as a signed char";
  EXPECT_FALSE((*values)['0' - 1]);
  ASSERT_NE(domains.byteOf(atLeastZero), nullptr);
  EXPECT_EQ(domains.byteOf(atLeastZero)->index, 3u);
}

// Every kind the direct evaluation takes, against the evaluator, and one it does not (a
// multiplication: the evaluator's walk then decides).
TEST_F(ByteDomainsTest, ValuesAgreeWithTheEvaluator) {
  ExprRef b = ctx.zext(byte(2), 32);
  std::vector<ExprRef> literals = {
      ctx.ult(ctx.sub(b, c32(10)), c32(40)),
      ctx.eq(ctx.bvxor(byte(2), ctx.constant(0x5a, 8)), ctx.constant(0x33, 8)),
      ctx.land(ctx.sle(c32('a'), wide(2)), ctx.sle(wide(2), c32('z'))),
      ctx.lnot(ctx.eq(ctx.extract(b, 4, 4), ctx.constant(3, 4))),
      ctx.eq(ctx.ite(ctx.ult(byte(2), ctx.constant(9, 8)), c32(1), ctx.add(b, c32(1))), c32(100)),
      ctx.slt(ctx.bvor(ctx.bvand(b, c32(0xf0)), c32(1)), c32(0x41)),
      ctx.eq(ctx.mul(b, c32(3)), c32(153)),
      // Comparisons of the byte with a constant, taken by one loop.
      ctx.sle(c32('0'), wide(2)),
      ctx.slt(wide(2), c32(0xfffffffb)),
      ctx.ult(b, c32(200)),
      ctx.ule(c32(0x7f), b),
      ctx.lnot(ctx.eq(byte(2), ctx.constant(' ', 8))),
      ctx.slt(byte(2), ctx.constant(0x10, 8)),
      ctx.lnot(ctx.sle(ctx.zext(byte(2), 16), ctx.constant(0x41, 16))),
  };
  for (const ExprRef &l : literals) {
    const std::bitset<256> *values = domains.valuesOf(l);
    ASSERT_NE(values, nullptr) << toString(l.get());
    EXPECT_EQ(*values, byEvaluator(l, 2)) << toString(l.get());
  }
}

// Literals of two bytes, of a byte at a symbolic index, or of many nodes are not looked at.
TEST_F(ByteDomainsTest, OnlyLiteralsOfOneByteAreLookedAt) {
  EXPECT_EQ(domains.byteOf(ctx.ult(byte(0), byte(1))), nullptr);
  EXPECT_EQ(domains.byteOf(ctx.eq(ctx.select(array, ctx.zext(byte(0), 64)), ctx.constant(1, 8))), nullptr);
  ExprRef large = wide(0);
  for (unsigned k = 0; k < 30; ++k)
    large = ctx.add(large, c32(k + 1));
  EXPECT_EQ(domains.byteOf(ctx.eq(large, c32(7))), nullptr);
  EXPECT_EQ(domains.valuesOf(ctx.eq(large, c32(7))), nullptr);
}

// A path's literals hold byte 4 in '0'..'9': a disjunct asking it below '0' is ruled out, one
// asking '5' or one on another byte is not; a literal the conjunction does not look at never
// rules anything out.
TEST_F(ByteDomainsTest, AConjunctionRulesOutWhatEmptiesAByte) {
  ByteDomains::Conjunction path(domains);
  path.add(ctx.sle(c32('0'), wide(4)));
  path.add(ctx.sle(wide(4), c32('9')));
  path.add(ctx.ult(byte(0), byte(1)));
  EXPECT_FALSE(path.allows({ctx.slt(wide(4), c32('0'))}));
  EXPECT_FALSE(path.allows({ctx.eq(byte(5), ctx.constant(1, 8)), ctx.slt(c32('9'), wide(4))}));
  EXPECT_TRUE(path.allows({ctx.eq(byte(4), ctx.constant('5', 8))}));
  EXPECT_TRUE(path.allows({ctx.slt(wide(5), c32('0'))}));
  EXPECT_TRUE(path.allows({ctx.eq(byte(0), byte(4))}));
  // The two literals of one disjunct together: each alone leaves values, both none.
  EXPECT_FALSE(path.allows({ctx.ult(byte(4), ctx.constant('3', 8)), ctx.ult(ctx.constant('6', 8), byte(4))}));
  EXPECT_TRUE(path.allows({})) << "nothing asked, nothing ruled out";
}

} // namespace
