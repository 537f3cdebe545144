// The shape of symbolic reads of constant arrays (solver-pool/lib/ConstArrayReads.h): which
// reads become lookup trees, the narrow part of an index, and the trees themselves, built with
// text terms so their structure can be compared.
#include "ConstArrayReads.h"
#include "cairn/expr/Expr.h"

#include <gtest/gtest.h>

#include <string>

using namespace cairn;
using namespace cairn::backend;

namespace {

// Terms as text: bits, comparisons, ites and values as written below.
struct TextOps {
  int ites = 0;
  std::string of(const Expr *e) {
    if (e->isConstant())
      return toDecimal(e->value());
    return e->kind() == Kind::Symbol ? e->symbol()->name : toString(e);
  }
  std::string bit(const std::string &t, unsigned j) { return t + "[" + std::to_string(j) + "]"; }
  std::string below(const std::string &t, unsigned, u128 n) { return t + "<" + toDecimal(n); }
  std::string equal(const std::string &a, const std::string &b) { return a + "=" + b; }
  std::string ite(const std::string &c, const std::string &a, const std::string &b) {
    ++ites;
    return "(" + c + "?" + a + ":" + b + ")";
  }
  std::string value(u128 v) { return toDecimal(v); }
};

struct ConstArrayLookupTest : ::testing::Test {
  ExprContext ctx;
  ExprRef sym(const char *name, unsigned width) {
    return ctx.symbol(ctx.declareSymbol(name, width, SymbolClass::Input));
  }
  ExprRef c(u128 v, unsigned width) { return ctx.constant(v, width); }
};

TEST_F(ConstArrayLookupTest, NarrowIndexThroughScaleAndOffset) {
  ExprRef x = sym("x", 8);
  // The third byte of a 4-byte element: 2 + 4 * zext(x).
  NarrowIndex ni = narrowIndex(ctx.add(c(2, 64), ctx.mul(c(4, 64), ctx.zext(x, 64))).get());
  EXPECT_EQ(ni.narrow, x.get());
  EXPECT_EQ(ni.offset, 2u);
  EXPECT_EQ(ni.scale, 4u);
  ni = narrowIndex(ctx.shl(ctx.zext(x, 64), c(3, 64)).get());
  EXPECT_EQ(ni.narrow, x.get());
  EXPECT_EQ(ni.scale, 8u);
  // A narrow index is its own narrow part; a wide one without a zero extension has none.
  EXPECT_EQ(narrowIndex(x.get()).narrow, x.get());
  EXPECT_EQ(narrowIndex(x.get()).bits, 8u);
  EXPECT_EQ(narrowIndex(sym("wide", 64).get()).narrow, nullptr);
  EXPECT_EQ(narrowIndex(ctx.zext(sym("w32", 32), 64).get()).narrow, nullptr);
  // The low byte of a wide value: `(v ^ b) & 0xff`, `(unsigned char)v`.
  ExprRef v = sym("v", 32);
  ni = narrowIndex(ctx.mul(c(4, 64), ctx.zext(ctx.bvand(v, c(0xff, 32)), 64)).get());
  EXPECT_EQ(ni.narrow, v.get());
  EXPECT_EQ(ni.bits, 8u);
  ni = narrowIndex(ctx.zext(ctx.extract(v, 0, 12), 64).get());
  EXPECT_EQ(ni.narrow, v.get());
  EXPECT_EQ(ni.bits, 12u);
  ExprRef middle = ctx.extract(v, 4, 8); // narrow itself
  EXPECT_EQ(narrowIndex(ctx.zext(middle, 64).get()).narrow, middle.get());
  EXPECT_EQ(narrowIndex(ctx.zext(ctx.bvand(v, c(0xf0, 32)), 64).get()).narrow, nullptr);
}

TEST_F(ConstArrayLookupTest, TreeTestsIndexBitsAndSharesEqualParts) {
  ExprRef x = sym("x", 2);
  const u128 values[] = {7, 7, 9, 9};
  ExprRef table = ctx.constArray(values, 8, 2);
  TextOps ops;
  // Equal halves collapse: only bit 1 decides.
  EXPECT_EQ(expandSelect<std::string>(ctx.select(table, x).get(), ops), "(x[1]?9:7)");
  const u128 alternating[] = {1, 2, 1, 2};
  ops.ites = 0;
  EXPECT_EQ(expandSelect<std::string>(ctx.select(ctx.constArray(alternating, 8, 2), x).get(), ops),
            "(x[0]?2:1)");
}

TEST_F(ConstArrayLookupTest, WordReadsTreeOverTheElementIndex) {
  // A table of 256 four-byte elements read at byte 4*x + 1: a tree over x's 8 bits, no range
  // test, leaves the second bytes of the elements.
  std::vector<u128> bytes(1024);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = (i * 37 + (i >> 2)) & 0xff;
  ExprRef table = ctx.constArray(bytes, 8, 64);
  ExprRef x = sym("x", 8);
  ExprRef index = ctx.add(c(1, 64), ctx.mul(c(4, 64), ctx.zext(x, 64)));
  ExprRef read = ctx.select(table, index);
  ASSERT_TRUE(expandsSelect(read.get()));
  TextOps ops;
  std::string tree = expandSelect<std::string>(read.get(), ops);
  EXPECT_LE(ops.ites, 255);
  EXPECT_EQ(tree.find('<'), std::string::npos);
  EXPECT_NE(tree.find("x[7]"), std::string::npos);
}

TEST_F(ConstArrayLookupTest, WideIndexGetsARangeTestAndStoresOnTop) {
  const u128 values[] = {1, 2, 3};
  ExprRef i = sym("i", 64);
  ExprRef table = ctx.constArray(values, 8, 64, 5);
  TextOps ops;
  // Position 3 lies behind the range test and repeats the last value.
  EXPECT_EQ(expandSelect<std::string>(ctx.select(table, i).get(), ops), "(i<3?(i[1]?3:(i[0]?2:1)):5)");
  ExprRef j = sym("j", 64);
  ExprRef stored = ctx.store(table, j, c(4, 8));
  EXPECT_EQ(expandSelect<std::string>(ctx.select(stored, i).get(), ops),
            "(i=j?4:(i<3?(i[1]?3:(i[0]?2:1)):5))");
}

TEST_F(ConstArrayLookupTest, WhichReadsBecomeTrees) {
  ExprRef i = sym("i", 64);
  std::vector<u128> big(kMaxLookupTree + 1, 1);
  big[3] = 2;
  ExprRef huge = ctx.constArray(big, 8, 64);
  // A table past the tree limit: only a narrow index keeps it out of the array theory.
  EXPECT_FALSE(expandsSelect(ctx.select(huge, i).get()));
  EXPECT_TRUE(expandsSelect(ctx.select(huge, ctx.zext(sym("s", 16), 64)).get()));
  // A symbolic array, a constant index: never.
  ExprRef input = ctx.symbol(ctx.declareArray("input", 4, 64));
  EXPECT_FALSE(expandsSelect(ctx.select(input, i).get()));
  const u128 values[] = {1, 2};
  EXPECT_FALSE(expandsSelect(ctx.select(ctx.store(ctx.constArray(values, 8, 64), i, c(9, 8)), c(0, 64)).get()));
}

} // namespace
