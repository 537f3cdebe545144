// The known bits of index terms (arrays/KnownBits.h) and the lookup a typed read is tied by
// (arrays/ReadLookup.h): the analysis holds for every value of the symbols, and the lookup
// tests only the bits an index can change.
#include "CountingSolver.h"
#include "arrays/KnownBits.h"
#include "arrays/ReadLookup.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_set>

using namespace cairn;
using namespace cairn::arrays;
using cairn::unit::layerCounter;
using cairn::unit::modelSatisfies;

namespace {

struct ReadLookup : ::testing::Test {
  ExprContext ctx;
  const SymbolDecl *inDecl = ctx.declareArray("in", 4);
  ExprRef in = ctx.symbol(inDecl);
  ExprRef byte(unsigned k) { return ctx.select(in, ctx.constant(k, 32)); }
  // (unsigned)(in[k] < v): a comparison's 0 or 1 at 32 bits, as C's `x < y` is.
  ExprRef flag(unsigned k, unsigned v) {
    return ctx.zext(ctx.ite(ctx.ult(byte(k), ctx.constant(v, 8)), ctx.constant(1, 1), ctx.constant(0, 1)), 32);
  }
  ExprRef c32(uint64_t v) { return ctx.constant(v, 32); }
  KnownBits bits(const ExprRef &e) { return KnownBitsAnalysis().of(e.get()); }
  static size_t ites(const Expr *root) {
    std::unordered_set<const Expr *> seen;
    std::vector<const Expr *> todo{root};
    size_t n = 0;
    while (!todo.empty()) {
      const Expr *e = todo.back();
      todo.pop_back();
      if (!seen.insert(e).second)
        continue;
      n += e->kind() == Kind::Ite;
      for (unsigned i = 0; i < e->numKids(); ++i)
        todo.push_back(e->kid(i));
    }
    return n;
  }
};

TEST_F(ReadLookup, SumsOfFlagsAtDisjointBitsAreKnownButForThoseBits) {
  // The binary search's third index: 32 * f1 + 16 * f2 + 8, times 4 for the int's first byte.
  ExprRef base = ctx.add(ctx.mul(c32(32), flag(0, 9)), ctx.mul(c32(16), flag(1, 7)));
  ExprRef index = ctx.mul(ctx.constant(4, 64), ctx.zext(ctx.add(base, c32(8)), 64));
  KnownBits k = bits(index);
  EXPECT_EQ(k.unknown(64), (u128(1) << 6) | (u128(1) << 7));
  EXPECT_EQ(k.one, u128(32));
  // A carry that may happen leaves the bits it may reach unknown: 8 * f + 8 is 8 or 16.
  KnownBits carry = bits(ctx.add(ctx.mul(c32(8), flag(0, 9)), c32(8)));
  EXPECT_EQ(carry.unknown(32), u128(8 | 16));
}

TEST_F(ReadLookup, TableValuesBoundTheirReads) {
  // next[state] of a recogniser: values 0-8, so every read's bits from the fourth up are zero.
  std::vector<u128> next{3, 1, 8, 0, 2, 7, 5, 4, 6};
  ExprRef table = ctx.constArray(next, 8, 32);
  KnownBits k = bits(ctx.zext(ctx.select(table, ctx.zext(byte(0), 32)), 32));
  EXPECT_EQ(k.unknown(32), u128(15));
  // x & 0x1c, (x >> 2) << 2, x % 8 and x | 3 each fix what they must.
  ExprRef x = ctx.zext(byte(1), 32);
  EXPECT_EQ(bits(ctx.bvand(x, c32(0x1c))).unknown(32), u128(0x1c));
  EXPECT_EQ(bits(ctx.shl(ctx.lshr(x, c32(2)), c32(2))).unknown(32), u128(0xfc));
  EXPECT_EQ(bits(ctx.urem(x, c32(8))).unknown(32), u128(7));
  EXPECT_EQ(bits(ctx.bvor(x, c32(3))).one, u128(3));
}

// Random terms over the input's bytes: the bits the analysis calls known are those bits in the
// term's value under every assignment tried.
TEST_F(ReadLookup, KnownBitsHoldForEveryValue) {
  std::mt19937_64 rng(7);
  auto pick = [&](uint64_t n) { return rng() % n; };
  std::vector<u128> small{0, 4, 8, 12, 16, 20};
  ExprRef table = ctx.constArray(small, 8, 32);
  auto term = [&](auto &&self, unsigned depth) -> ExprRef {
    if (depth == 0 || pick(5) == 0)
      return pick(3) ? ctx.zext(byte(unsigned(pick(4))), 32) : c32(pick(64));
    ExprRef a = self(self, depth - 1);
    switch (pick(14)) {
    case 0: return ctx.add(a, self(self, depth - 1));
    case 1: return ctx.sub(a, self(self, depth - 1));
    case 2: return ctx.mul(c32(1u << pick(5)), a);
    case 3: return ctx.mul(a, self(self, depth - 1));
    case 4: return ctx.bvand(a, pick(2) ? c32(pick(256)) : self(self, depth - 1));
    case 5: return ctx.bvor(a, pick(2) ? c32(pick(256)) : self(self, depth - 1));
    case 6: return ctx.bvxor(a, self(self, depth - 1));
    case 7: return ctx.shl(a, c32(pick(6)));
    case 8: return ctx.lshr(a, c32(pick(6)));
    case 9: return ctx.urem(a, c32(1 + pick(12)));
    case 10: return ctx.udiv(a, c32(1 + pick(12)));
    case 11: return ctx.ite(ctx.ult(a, c32(pick(40))), self(self, depth - 1), self(self, depth - 1));
    case 12: return ctx.zext(ctx.select(table, ctx.bvand(a, c32(7))), 32);
    default: return ctx.zext(ctx.extract(a, unsigned(pick(4)), 12), 32);
    }
  };
  unsigned someKnown = 0;
  for (unsigned n = 0; n < 400; ++n) {
    ExprRef t = term(term, 4);
    KnownBits k = bits(t);
    ASSERT_EQ(k.zero & k.one, u128(0)) << toString(t.get());
    someKnown += (k.zero | k.one) != 0;
    for (unsigned s = 0; s < 64; ++s) {
      Assignment a;
      a.setArray(inDecl, {pick(256), pick(256), pick(256), pick(256)});
      const u128 v = evaluate(t.get(), a);
      ASSERT_TRUE(k.admits(v)) << toString(t.get()) << " = " << uint64_t(v);
    }
  }
  EXPECT_GT(someKnown, 200u); // the property is not met by knowing nothing
}

// The binary search's second read of a 64-int table: two positions, whatever the interval, so
// the read's tie is one test of one bit, where the core's lookup tests eight.
TEST_F(ReadLookup, ABinarySearchReadIsTiedByTheBitsItsIndexMoves) {
  std::vector<u128> bytes;
  for (unsigned i = 0; i < 64; ++i)
    for (unsigned b = 0; b < 4; ++b)
      bytes.push_back(((3 * i) >> (8 * b)) & 0xff);
  ExprRef table = ctx.constArray(bytes, 8, 64);
  ExprRef element = ctx.add(ctx.mul(c32(32), flag(0, 100)), c32(16));
  AbstractRead r;
  r.array = table.get();
  auto contents = ArrayContents::of(table.get());
  ASSERT_TRUE(contents);
  r.contents = std::make_shared<const ArrayContents>(std::move(*contents));
  r.index = ctx.mul(ctx.constant(4, 64), ctx.zext(element, 64));
  r.variable = ctx.symbol(ctx.declareSymbol("read", 8, SymbolClass::Input));
  r.interval = {0, 255};
  r.modulus = 4;
  r.indexBits = bits(r.index);
  EXPECT_EQ(lookupPositions(r), std::optional<uint64_t>(2));
  ExprRef tie = lookupTie(r);
  ASSERT_TRUE(tie);
  EXPECT_EQ(ites(tie.get()), 1u) << toString(tie.get());
  // Tied so, the read is the table's byte at its index under every assignment of the flag.
  for (unsigned v : {0u, 99u, 100u, 255u}) {
    Assignment a;
    a.setArray(inDecl, {v, 0, 0, 0});
    const u128 position = evaluate(r.index.get(), a);
    a.setScalar(r.variable->symbol(), bytes[size_t(position)]);
    EXPECT_TRUE(evaluatesTrue(tie.get(), a)) << v;
    a.setScalar(r.variable->symbol(), bytes[size_t(position)] + 1);
    EXPECT_FALSE(evaluatesTrue(tie.get(), a)) << v;
  }
  // An interval that leaves one of the two positions: no test at all.
  r.interval = {0, 100};
  EXPECT_EQ(lookupPositions(r), std::optional<uint64_t>(1));
  EXPECT_EQ(ites(lookupTie(r).get()), 0u);
}

// A lookup's index facts (the bits it takes as given, true in every model of the query) are
// only of the bits the query fixes: the bits the index's own terms fix (a zero-extended byte's
// high bits) hold whatever the query, and a fact of them is only more for the core to take in.
TEST_F(ReadLookup, IndexFactsAreOfTheBitsTheQueryFixesOnly) {
  std::vector<u128> bytes(256);
  for (unsigned i = 0; i < 256; ++i)
    bytes[i] = (7 * i) & 0xff;
  ExprRef table = ctx.constArray(bytes, 8, 64);
  auto contents = ArrayContents::of(table.get());
  ASSERT_TRUE(contents);
  AbstractRead r;
  r.array = table.get();
  r.contents = std::make_shared<const ArrayContents>(std::move(*contents));
  r.variable = ctx.symbol(ctx.declareSymbol("read", 8, SymbolClass::Input));
  r.modulus = 1;
  // A zero-extended byte read within the byte's whole range: its structure fixes every bit the
  // lookup does not test.
  r.index = ctx.zext(byte(0), 64);
  r.interval = {0, 255};
  r.indexBits = bits(r.index);
  std::optional<WholeRead> whole = lookupRead(r);
  ASSERT_TRUE(whole);
  EXPECT_TRUE(whole->indexFacts->isTrue()) << toString(whole->indexFacts.get());
  // The same index within [0, 15], as a query may bound it: bits 4-7 are the query's to fix.
  r.interval = {0, 15};
  whole = lookupRead(r);
  ASSERT_TRUE(whole);
  ExprRef fourToSeven = ctx.constant(0xf0, 64);
  EXPECT_EQ(whole->indexFacts.get(), ctx.eq(ctx.bvand(r.index, fourToSeven), ctx.constant(0, 64)).get())
      << toString(whole->indexFacts.get());
  // Tied so, the read is the table's byte wherever the query lets the index be.
  for (unsigned v : {0u, 9u, 15u}) {
    Assignment a;
    a.setArray(inDecl, {v, 0, 0, 0});
    a.setScalar(r.variable->symbol(), bytes[v]);
    EXPECT_TRUE(evaluatesTrue(wholeReadExpr(r, *whole).get(), a)) << v;
    a.setScalar(r.variable->symbol(), bytes[v] ^ 1);
    EXPECT_FALSE(evaluatesTrue(wholeReadExpr(r, *whole).get(), a)) << v;
  }
  // A plain 64-bit index has no bits of its own: the interval's are all facts.
  r.index = ctx.symbol(ctx.declareSymbol("i", 64, SymbolClass::Input));
  r.indexBits = bits(r.index);
  whole = lookupRead(r);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->indexFacts.get(),
            ctx.eq(ctx.bvand(r.index, ctx.constant(~u128(0xf) & widthMask(64), 64)), ctx.constant(0, 64)).get());
}

// Queries of the binary-search kind (reads whose indices sum flags of earlier reads, masked
// and scaled indices, nested reads): the layer with its lookups agrees with plain Z3, and every
// model it gives satisfies the query.
TEST_F(ReadLookup, TypedLayerAgreesWithZ3OnSummedAndNestedIndices) {
  std::mt19937_64 rng(4242);
  auto pick = [&](uint64_t n) { return rng() % n; };
  std::unique_ptr<Solver> z3 = createZ3Solver(30);
  ArraySolverOptions o;
  o.precheck = o.typed = true;
  std::unique_ptr<Solver> typed = createTypedArraySolver(createZ3Solver(30), o);
  unsigned sat = 0, unsat = 0;
  for (unsigned n = 0; n < 300; ++n) {
    std::vector<u128> words(16);
    for (u128 &w : words)
      w = pick(3) ? pick(16) : pick(1u << 16);
    std::vector<u128> bytes;
    for (u128 w : words)
      for (unsigned b = 0; b < 4; ++b)
        bytes.push_back((w >> (8 * b)) & 0xff);
    ExprRef table = ctx.constArray(bytes, 8, 64);
    auto word = [&](const ExprRef &element) {
      return ctx.readLE(table, ctx.mul(ctx.constant(4, 64), ctx.zext(element, 64)), 4);
    };
    // A search over the 16 words: each step's index adds half * (word < key).
    ExprRef key = ctx.zext(byte(unsigned(pick(4))), 32);
    ExprRef base = c32(0);
    const unsigned steps = 1 + unsigned(pick(4));
    for (unsigned s = 0, half = 8; s < steps; ++s, half /= 2) {
      ExprRef below = ctx.ite(ctx.ult(word(ctx.add(base, c32(half))), key), c32(1), c32(0));
      base = ctx.add(base, ctx.mul(c32(half), below));
    }
    std::vector<ExprRef> pc;
    switch (pick(3)) {
    case 0: pc.push_back(ctx.eq(word(base), key)); break;
    case 1: pc.push_back(ctx.ult(c32(pick(12)), word(ctx.bvand(ctx.zext(byte(1), 32), c32(pick(2) ? 12 : 15))))); break;
    default: pc.push_back(ctx.eq(word(ctx.bvand(word(base), c32(15))), c32(pick(16)))); break;
    }
    pc.push_back(pick(2) ? ctx.ult(base, c32(pick(16))) : ctx.ne(word(base), c32(pick(16))));
    ExprRef expr = pc.back();
    pc.pop_back();
    Query q(pc, expr, {in});
    auto types = std::make_shared<ArrayTypes>();
    types->elementBytes.push_back({table, 4});
    q.arrayTypes = types;
    const SatResult expected = z3->check(q, false).result;
    ASSERT_NE(expected, SatResult::Unknown);
    SolverResponse got = typed->check(q, true);
    ASSERT_EQ(got.result, expected) << "query " << n; // (the terms run to thousands of nodes)
    if (got.result == SatResult::Sat) {
      ++sat;
      ASSERT_TRUE(modelSatisfies(q, got.model)) << "query " << n;
    } else {
      ++unsat;
    }
  }
  EXPECT_GT(sat, 30u);
  EXPECT_GT(unsat, 30u);
  EXPECT_GT(layerCounter(*typed, "cegar_queries"), 100u);
}

} // namespace
