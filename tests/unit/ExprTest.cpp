// Unit tests of the expression layer: constant folding against an independent reference,
// hash-consing, simplifier shapes, rename hashing, evaluation, import and small traversals.
#include "cairn/expr/Assignment.h"
#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprContext.h"
#include "cairn/expr/ExprUtil.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cairn;

namespace {

// ---------------------------------------------------------------------------------------------
// Reference semantics, written from the SMT-LIB definitions on plain unsigned __int128 (no use
// of Fold.h or of the helpers in Expr.h).

namespace ref {

u128 mask(unsigned w) { return w >= 128 ? ~u128(0) : (u128(1) << w) - 1; }
bool msb(u128 v, unsigned w) { return (v >> (w - 1)) & 1; }
u128 bvnot(u128 a, unsigned w) { return ~a & mask(w); }
u128 bvneg(u128 a, unsigned w) { return (bvnot(a, w) + 1) & mask(w); }
u128 add(u128 a, u128 b, unsigned w) { return (a + b) & mask(w); }
u128 sub(u128 a, u128 b, unsigned w) { return add(a, bvneg(b, w), w); } // a + (-b)
u128 mul(u128 a, u128 b, unsigned w) {                                 // shift-and-add
  u128 acc = 0;
  for (unsigned i = 0; i < w; ++i)
    if ((b >> i) & 1)
      acc += a << i;
  return acc & mask(w);
}
u128 udiv(u128 a, u128 b, unsigned w) { return b == 0 ? mask(w) : a / b; }
u128 urem(u128 a, u128 b, unsigned w) { return b == 0 ? a : a % b; }
// bvsdiv / bvsrem exactly as the SMT-LIB FixedSizeBitVectors theory defines them.
u128 sdiv(u128 s, u128 t, unsigned w) {
  bool ms = msb(s, w), mt = msb(t, w);
  if (!ms && !mt)
    return udiv(s, t, w);
  if (ms && !mt)
    return bvneg(udiv(bvneg(s, w), t, w), w);
  if (!ms && mt)
    return bvneg(udiv(s, bvneg(t, w), w), w);
  return udiv(bvneg(s, w), bvneg(t, w), w);
}
u128 srem(u128 s, u128 t, unsigned w) {
  bool ms = msb(s, w), mt = msb(t, w);
  if (!ms && !mt)
    return urem(s, t, w);
  if (ms && !mt)
    return bvneg(urem(bvneg(s, w), t, w), w);
  if (!ms && mt)
    return urem(s, bvneg(t, w), w);
  return bvneg(urem(bvneg(s, w), bvneg(t, w), w), w);
}
u128 shl(u128 a, u128 b, unsigned w) { return b >= w ? 0 : (a << unsigned(b)) & mask(w); }
u128 lshr(u128 a, u128 b, unsigned w) { return b >= w ? 0 : a >> unsigned(b); }
// bvashr s t = ite(msb s = 0, bvlshr s t, bvnot (bvlshr (bvnot s) t))
u128 ashr(u128 a, u128 b, unsigned w) {
  return msb(a, w) ? bvnot(lshr(bvnot(a, w), b, w), w) : lshr(a, b, w);
}
u128 ult(u128 a, u128 b, unsigned) { return a < b; }
u128 ule(u128 a, u128 b, unsigned) { return a <= b; }
// bvslt s t = (msb s = 1 and msb t = 0) or (msb s = msb t and bvult s t)
u128 slt(u128 a, u128 b, unsigned w) {
  return (msb(a, w) && !msb(b, w)) || (msb(a, w) == msb(b, w) && a < b);
}
u128 sle(u128 a, u128 b, unsigned w) {
  return (msb(a, w) && !msb(b, w)) || (msb(a, w) == msb(b, w) && a <= b);
}
u128 extract(u128 a, unsigned off, unsigned w) { return (a >> off) & mask(w); }
u128 zext(u128 a, unsigned, unsigned) { return a; }
u128 sext(u128 a, unsigned w, unsigned to) {
  return msb(a, w) ? (a | (mask(to) & ~mask(w))) : a; // concat(repeat(msb), a)
}
u128 concat(u128 hi, u128 lo, unsigned loWidth) { return (hi << loWidth) | lo; }

} // namespace ref

std::string hex(u128 v) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[unsigned(v & 15)]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

u128 rand128(std::mt19937_64 &rng) { return (u128(rng()) << 64) | rng(); }

const unsigned kWidths[] = {1, 2, 7, 8, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128};

std::vector<u128> edgeValues(unsigned w) {
  const u128 m = ref::mask(w), sign = u128(1) << (w - 1);
  std::set<u128> s{0, 1 & m, 2 & m, m, (m - 1) & m, sign, sign - 1, (sign + 1) & m};
  return {s.begin(), s.end()};
}

// Random operands biased towards interesting values: edges, small numbers (shift amounts,
// divisors), numbers of random magnitude and uniform ones.
u128 randomValue(std::mt19937_64 &rng, unsigned w) {
  const u128 m = ref::mask(w);
  switch (rng() % 8) {
  case 0: {
    std::vector<u128> e = edgeValues(w);
    return e[rng() % e.size()];
  }
  case 1: return u128(rng() % (w + 3)) & m;
  case 2: return rand128(rng) & ref::mask(unsigned(rng() % (w + 1)));
  case 3: return (m - u128(rng() % 4)) & m;
  case 4: return ((u128(1) << (w - 1)) ^ (rand128(rng) & ref::mask(unsigned(rng() % w)))) & m;
  default: return rand128(rng) & m;
  }
}

struct BinOp {
  const char *name;
  ExprRef (ExprContext::*build)(const ExprRef &, const ExprRef &);
  std::function<u128(u128, u128, unsigned)> ref;
  bool comparison = false;
};

std::vector<BinOp> binaryOps() {
  auto swapped = [](u128 (*f)(u128, u128, unsigned)) {
    return [f](u128 a, u128 b, unsigned w) { return f(b, a, w); };
  };
  auto negated = [](u128 (*f)(u128, u128, unsigned)) {
    return [f](u128 a, u128 b, unsigned w) { return u128(!f(a, b, w)); };
  };
  return {
      {"add", &ExprContext::add, ref::add},
      {"sub", &ExprContext::sub, ref::sub},
      {"mul", &ExprContext::mul, ref::mul},
      {"udiv", &ExprContext::udiv, ref::udiv},
      {"sdiv", &ExprContext::sdiv, ref::sdiv},
      {"urem", &ExprContext::urem, ref::urem},
      {"srem", &ExprContext::srem, ref::srem},
      {"and", &ExprContext::bvand, [](u128 a, u128 b, unsigned) { return a & b; }},
      {"or", &ExprContext::bvor, [](u128 a, u128 b, unsigned) { return a | b; }},
      {"xor", &ExprContext::bvxor, [](u128 a, u128 b, unsigned) { return a ^ b; }},
      {"shl", &ExprContext::shl, ref::shl},
      {"lshr", &ExprContext::lshr, ref::lshr},
      {"ashr", &ExprContext::ashr, ref::ashr},
      {"eq", &ExprContext::eq, [](u128 a, u128 b, unsigned) { return u128(a == b); }, true},
      {"ne", &ExprContext::ne, [](u128 a, u128 b, unsigned) { return u128(a != b); }, true},
      {"ult", &ExprContext::ult, ref::ult, true},
      {"ule", &ExprContext::ule, ref::ule, true},
      {"ugt", &ExprContext::ugt, swapped(ref::ult), true},
      {"uge", &ExprContext::uge, swapped(ref::ule), true},
      {"slt", &ExprContext::slt, ref::slt, true},
      {"sle", &ExprContext::sle, ref::sle, true},
      {"sgt", &ExprContext::sgt, swapped(ref::slt), true},
      {"sge", &ExprContext::sge, swapped(ref::sle), true},
      {"not-ult", nullptr, negated(ref::ult), true}, // bvnot of a comparison
      {"not-slt", nullptr, negated(ref::slt), true},
  };
}

// Reports a mismatch; gives up on the test after a handful.
class Mismatches {
public:
  bool report(const std::string &what) {
    ADD_FAILURE() << what;
    return ++count_ < 20;
  }
  bool ok() const { return count_ < 20; }

private:
  unsigned count_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Constant folding versus the reference

TEST(ExprFold, BinaryAndComparisonOperationsMatchReference) {
  ExprContext ctx;
  std::mt19937_64 rng(12345);
  Mismatches bad;
  const std::vector<BinOp> ops = binaryOps();
  size_t checked = 0;
  for (unsigned w : kWidths) {
    std::vector<std::pair<u128, u128>> inputs;
    for (u128 a : edgeValues(w))
      for (u128 b : edgeValues(w))
        inputs.emplace_back(a, b);
    for (int i = 0; i < 2500; ++i)
      inputs.emplace_back(randomValue(rng, w), randomValue(rng, w));
    for (auto [a, b] : inputs) {
      ExprRef ca = ctx.constant(a, w), cb = ctx.constant(b, w);
      for (const BinOp &op : ops) {
        ExprRef r;
        if (op.build)
          r = (ctx.*op.build)(ca, cb);
        else if (std::string(op.name) == "not-ult")
          r = ctx.bvnot(ctx.ult(ca, cb));
        else
          r = ctx.bvnot(ctx.slt(ca, cb));
        const u128 want = op.ref(a, b, w);
        const unsigned rw = op.comparison ? 1 : w;
        ++checked;
        if (!r->isConstant() || r->width() != rw || r->value() != want) {
          if (!bad.report(std::string(op.name) + " w" + std::to_string(w) + " " + hex(a) + ", " +
                          hex(b) + ": got " + toString(r.get()) + ", want " + hex(want)))
            return;
        }
      }
    }
  }
  EXPECT_GT(checked, size_t(800000));
}

TEST(ExprFold, UnaryOperationsMatchReference) {
  ExprContext ctx;
  std::mt19937_64 rng(777);
  Mismatches bad;
  for (unsigned w : kWidths) {
    std::vector<u128> values = edgeValues(w);
    for (int i = 0; i < 3000; ++i)
      values.push_back(randomValue(rng, w));
    for (u128 a : values) {
      ExprRef ca = ctx.constant(a, w);
      auto check = [&](const char *what, const ExprRef &r, unsigned rw, u128 want) {
        if (!r->isConstant() || r->width() != rw || r->value() != want)
          bad.report(std::string(what) + " w" + std::to_string(w) + " " + hex(a) + ": got " +
                     toString(r.get()) + ", want " + hex(want));
      };
      check("not", ctx.bvnot(ca), w, ref::bvnot(a, w));
      check("neg", ctx.neg(ca), w, ref::bvneg(a, w));
      // Extract of a random slice.
      unsigned ew = 1 + unsigned(rng() % w);
      unsigned off = unsigned(rng() % (w - ew + 1));
      check("extract", ctx.extract(ca, off, ew), ew, ref::extract(a, off, ew));
      // Extensions to a random wider width (or the same).
      unsigned to = w + unsigned(rng() % (128 - w + 1));
      check("zext", ctx.zext(ca, to), to, ref::zext(a, w, to));
      check("sext", ctx.sext(ca, to), to, ref::sext(a, w, to));
      check("zextOrTrunc", ctx.zextOrTrunc(ca, ew), ew, ref::extract(a, 0, ew));
      check("sextOrTrunc", ctx.sextOrTrunc(ca, to), to, ref::sext(a, w, to));
      // Concat with a random low part.
      if (w < 128) {
        unsigned lw = 1 + unsigned(rng() % (128 - w));
        u128 b = randomValue(rng, lw);
        check("concat", ctx.concat(ca, ctx.constant(b, lw)), w + lw, ref::concat(a, b, lw));
        check("concat-low", ctx.concat(ctx.constant(b, lw), ca), w + lw, ref::concat(b, a, w));
      }
      // Ite with a constant condition.
      u128 other = randomValue(rng, w);
      check("ite-true", ctx.ite(ctx.trueExpr(), ca, ctx.constant(other, w)), w, a);
      check("ite-false", ctx.ite(ctx.falseExpr(), ca, ctx.constant(other, w)), w, other);
      if (!bad.ok())
        return;
    }
  }
}

TEST(ExprFold, ConstantsAreMasked) {
  ExprContext ctx;
  EXPECT_EQ(ctx.constant(0x1ff, 8)->value(), u128(0xff));
  EXPECT_EQ(ctx.constant(0x1ff, 8), ctx.constant(0xff, 8));
  EXPECT_NE(ctx.constant(5, 8), ctx.constant(5, 16));
  EXPECT_EQ(ctx.constant(~u128(0), 128)->value(), ~u128(0));
  EXPECT_TRUE(ctx.trueExpr()->isTrue());
  EXPECT_TRUE(ctx.falseExpr()->isFalse());
}

TEST(ExprFold, SelectOverStoresAndConstantArrays) {
  ExprContext ctx;
  std::mt19937_64 rng(99);
  for (int round = 0; round < 400; ++round) {
    const unsigned rw = std::vector<unsigned>{1, 8, 16, 64, 128}[rng() % 5];
    const unsigned dw = std::vector<unsigned>{4, 8, 32, 64}[rng() % 4];
    std::vector<u128> values(rng() % 10);
    for (u128 &v : values)
      v = rand128(rng); // deliberately unmasked
    const u128 dflt = rand128(rng);
    ExprRef arr = ctx.constArray(values, rw, dw, dflt);
    ASSERT_EQ(arr->width(), rw);
    ASSERT_EQ(arr->domainWidth(), dw);
    std::map<u128, u128> model;
    for (size_t i = 0; i < values.size(); ++i)
      model[i] = values[i] & ref::mask(rw);
    auto expect = [&](u128 i) {
      auto it = model.find(i);
      return it != model.end() ? it->second : dflt & ref::mask(rw);
    };
    for (unsigned s = 0, n = unsigned(rng() % 12); s < n; ++s) {
      u128 i = rng() % 14, v = randomValue(rng, rw);
      arr = ctx.store(arr, ctx.constant(i, dw), ctx.constant(v, rw));
      model[i] = v;
    }
    for (u128 i = 0; i < 16; ++i) {
      ExprRef r = ctx.select(arr, ctx.constant(i, dw));
      ASSERT_TRUE(r->isConstant()) << toString(r.get());
      ASSERT_EQ(r->width(), rw);
      ASSERT_EQ(r->value(), expect(i)) << "round " << round << " index " << unsigned(i);
    }
    // A little-endian read of constant memory folds as well.
    if (rw == 8 && dw >= 8) {
      ExprRef word = ctx.readLE(arr, ctx.constant(2, dw), 4);
      ASSERT_TRUE(word->isConstant());
      u128 want = 0;
      for (unsigned b = 0; b < 4; ++b)
        want |= expect(2 + b) << (8 * b);
      EXPECT_EQ(word->value(), want);
    }
  }
}

TEST(ExprFold, ConstArraysAreInternedByContent) {
  ExprContext ctx;
  std::vector<u128> a{1, 2, 3}, b{1, 2, 3}, c{1, 2, 4}, unmasked{0x101, 0x102, 0x103};
  EXPECT_EQ(ctx.constArray(a), ctx.constArray(b));
  EXPECT_NE(ctx.constArray(a), ctx.constArray(c));
  EXPECT_EQ(ctx.constArray(a), ctx.constArray(unmasked)); // elements are 8-bit
  EXPECT_NE(ctx.constArray(a, 8, 32, 0), ctx.constArray(a, 8, 32, 7));
  EXPECT_NE(ctx.constArray(a, 8, 32), ctx.constArray(a, 16, 32));
  EXPECT_EQ(ctx.constArray(a, 8, 32, 0x1ff), ctx.constArray(a, 8, 32, 0xff));
  EXPECT_EQ(ctx.constArray(a, 8, 32, 0x1ff)->constArray()->defaultValue, u128(0xff));
}

// ---------------------------------------------------------------------------------------------
// Hash-consing

struct Vars {
  ExprContext &ctx;
  ExprRef x8, y8, x16, x32, y32, z32, b1, c1;
  ExprRef mem;
  explicit Vars(ExprContext &c)
      : ctx(c), x8(sym("x8", 8)), y8(sym("y8", 8)), x16(sym("x16", 16)), x32(sym("x32", 32)),
        y32(sym("y32", 32)), z32(sym("z32", 32)), b1(sym("b1", 1)), c1(sym("c1", 1)),
        mem(c.symbol(c.declareArray("mem", 64, 32, 8))) {}
  ExprRef sym(const char *name, unsigned w) {
    return ctx.symbol(ctx.declareSymbol(name, w, SymbolClass::Input));
  }
  ExprRef k(u128 v, unsigned w) { return ctx.constant(v, w); }
};

TEST(ExprHashCons, EqualConstructionsShareOneNode) {
  ExprContext ctx;
  Vars v(ctx);
  EXPECT_EQ(ctx.add(v.x32, v.y32).get(), ctx.add(v.x32, v.y32).get());
  EXPECT_EQ(ctx.udiv(v.x32, v.y32), ctx.udiv(v.x32, v.y32));
  EXPECT_NE(ctx.udiv(v.x32, v.y32), ctx.udiv(v.y32, v.x32));
  EXPECT_NE(ctx.sub(v.x32, v.y32), ctx.sub(v.y32, v.x32));
  EXPECT_EQ(ctx.extract(v.x32, 3, 5), ctx.extract(v.x32, 3, 5));
  EXPECT_NE(ctx.extract(v.x32, 3, 5), ctx.extract(v.x32, 4, 5));
  EXPECT_EQ(ctx.store(v.mem, v.y32, v.x8), ctx.store(v.mem, v.y32, v.x8));
  // The same symbol declaration gives the same node; a second declaration is a new symbol.
  const SymbolDecl *d = ctx.findSymbol("x32");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(ctx.symbol(d), v.x32);
  const SymbolDecl *again = ctx.declareSymbol("x32", 32, SymbolClass::Input);
  EXPECT_NE(again->name, "x32");
  EXPECT_NE(ctx.symbol(again), v.x32);
}

TEST(ExprHashCons, CommutativeOperandsAreCanonical) {
  ExprContext ctx;
  Vars v(ctx);
  using Builder = ExprRef (ExprContext::*)(const ExprRef &, const ExprRef &);
  for (Builder b : {Builder(&ExprContext::add), Builder(&ExprContext::mul),
                    Builder(&ExprContext::bvand), Builder(&ExprContext::bvor),
                    Builder(&ExprContext::bvxor), Builder(&ExprContext::eq)}) {
    EXPECT_EQ((ctx.*b)(v.x32, v.y32), (ctx.*b)(v.y32, v.x32));
    ExprRef withConst = (ctx.*b)(v.x32, v.k(7, 32));
    EXPECT_EQ(withConst, (ctx.*b)(v.k(7, 32), v.x32));
    if (withConst->numKids() == 2) { // a constant operand goes on the left
      EXPECT_TRUE(withConst->kid(0)->isConstant()) << toString(withConst.get());
    }
  }
  ExprRef s = ctx.add(v.x32, v.y32);
  EXPECT_TRUE(exprLess(s->kid(0), s->kid(1)));
}

TEST(ExprHashCons, NodesAreFreedWithTheirLastReference) {
  ExprContext ctx;
  Vars v(ctx);
  const uint64_t live0 = ctx.stats().live;
  {
    ExprRef e = ctx.add(ctx.mul(v.x32, v.y32), v.k(5, 32));
    ExprRef f = ctx.ite(ctx.ult(e, v.z32), e, ctx.neg(e));
    EXPECT_GT(ctx.stats().live, live0);
    ExprRef copy = f;
    f = ExprRef();
    EXPECT_GT(ctx.stats().live, live0); // still referenced by `copy`
  }
  EXPECT_EQ(ctx.stats().live, live0);
  {
    ExprRef arr = v.mem;
    for (unsigned i = 0; i < 1000; ++i)
      arr = ctx.store(arr, ctx.add(v.k(i, 32), v.y32), v.x8);
    EXPECT_GE(ctx.stats().live, live0 + 2000);
  }
  EXPECT_EQ(ctx.stats().live, live0);
  const uint64_t created = ctx.stats().created;
  ExprRef again = ctx.add(v.x32, v.y32); // freed above, so built anew
  EXPECT_EQ(ctx.stats().created, created + 1);
  const uint64_t hits = ctx.stats().hits, requests = ctx.stats().requests;
  ExprRef same = ctx.add(v.y32, v.x32);
  EXPECT_EQ(same, again);
  EXPECT_EQ(ctx.stats().created, created + 1);
  EXPECT_EQ(ctx.stats().hits, hits + 1);
  EXPECT_EQ(ctx.stats().requests, requests + 1);
  EXPECT_GT(ctx.stats().hitRate(), 0.0);
}

TEST(ExprHashCons, IdsAreStable) {
  ExprContext ctx;
  Vars v(ctx);
  ExprRef e = ctx.add(v.x32, v.y32);
  const uint32_t id = e->id();
  const uint64_t hash = e->hash();
  std::vector<ExprRef> keep;
  for (unsigned i = 0; i < 5000; ++i) // enough to grow the table several times
    keep.push_back(ctx.mul(v.k(i + 2, 32), v.z32));
  EXPECT_EQ(e->id(), id);
  EXPECT_EQ(ctx.add(v.y32, v.x32)->id(), id);
  EXPECT_EQ(ctx.add(v.y32, v.x32)->hash(), hash);
  // Ids are creation order.
  for (size_t i = 1; i < keep.size(); ++i)
    ASSERT_LT(keep[i - 1]->id(), keep[i]->id());
  EXPECT_LT(id, keep.front()->id());
  // Nodes still alive keep resolving to themselves after others are freed.
  std::vector<uint32_t> ids;
  for (size_t i = 0; i < keep.size(); i += 2)
    ids.push_back(keep[i]->id());
  for (size_t i = 1; i < keep.size(); i += 2)
    keep[i] = ExprRef();
  for (size_t i = 0; i < keep.size(); i += 2)
    ASSERT_EQ(ctx.mul(v.z32, v.k(i + 2, 32))->id(), ids[i / 2]);
}

// ---------------------------------------------------------------------------------------------
// Simplifier shapes

TEST(ExprSimplify, IdentitiesAndAnnihilators) {
  ExprContext ctx;
  Vars v(ctx);
  const ExprRef &x = v.x32;
  EXPECT_EQ(ctx.add(x, v.k(0, 32)), x);
  EXPECT_EQ(ctx.add(v.k(0, 32), x), x);
  EXPECT_EQ(ctx.sub(x, x), v.k(0, 32));
  EXPECT_EQ(ctx.sub(x, v.k(0, 32)), x);
  EXPECT_EQ(ctx.mul(x, v.k(1, 32)), x);
  EXPECT_EQ(ctx.mul(x, v.k(0, 32)), v.k(0, 32));
  EXPECT_EQ(ctx.bvand(x, v.k(0, 32)), v.k(0, 32));
  EXPECT_EQ(ctx.bvand(x, v.k(0xffffffff, 32)), x);
  EXPECT_EQ(ctx.bvand(x, x), x);
  EXPECT_EQ(ctx.bvor(x, x), x);
  EXPECT_EQ(ctx.bvor(x, v.k(0, 32)), x);
  EXPECT_EQ(ctx.bvor(x, v.k(0xffffffff, 32)), v.k(0xffffffff, 32));
  EXPECT_EQ(ctx.bvxor(x, x), v.k(0, 32));
  EXPECT_EQ(ctx.bvxor(x, v.k(0, 32)), x);
  EXPECT_EQ(ctx.bvxor(x, v.k(0xffffffff, 32)), ctx.bvnot(x));
  EXPECT_EQ(ctx.bvnot(ctx.bvnot(x)), x);
  EXPECT_EQ(ctx.bvand(x, ctx.bvnot(x)), v.k(0, 32));
  EXPECT_EQ(ctx.bvor(ctx.bvnot(x), x), v.k(0xffffffff, 32));
  EXPECT_EQ(ctx.udiv(x, v.k(1, 32)), x);
  EXPECT_EQ(ctx.urem(x, v.k(1, 32)), v.k(0, 32));
  EXPECT_EQ(ctx.shl(x, v.k(0, 32)), x);
  EXPECT_EQ(ctx.shl(x, v.k(32, 32)), v.k(0, 32));
  EXPECT_EQ(ctx.lshr(x, v.k(40, 32)), v.k(0, 32));
  EXPECT_EQ(ctx.ashr(x, v.k(0, 32)), x);
  // x - c is (-c) + x, with the constant on the left.
  ExprRef d = ctx.sub(x, v.k(3, 32));
  ASSERT_EQ(d->kind(), Kind::Add);
  EXPECT_EQ(d->kid(0), v.k(0xfffffffd, 32).get());
  EXPECT_EQ(d->kid(1), x.get());
  // Constants gather at the top of sums: (1 + x) + (2 + y) = 3 + (x + y).
  ExprRef sum = ctx.add(ctx.add(v.k(1, 32), x), ctx.add(v.k(2, 32), v.y32));
  EXPECT_EQ(sum, ctx.add(v.k(3, 32), ctx.add(x, v.y32)));
  EXPECT_EQ(ctx.sub(ctx.add(v.k(9, 32), x), x), v.k(9, 32));
  // Two offsets from one base: (9 + x) - (4 + x) = 5, (4 + x) - (9 + x) = -5.
  EXPECT_EQ(ctx.sub(ctx.add(v.k(9, 32), x), ctx.add(v.k(4, 32), x)), v.k(5, 32));
  EXPECT_EQ(ctx.sub(ctx.add(v.k(4, 32), x), ctx.add(v.k(9, 32), x)), v.k(0xfffffffb, 32));
  EXPECT_NE(ctx.sub(ctx.add(v.k(9, 32), x), ctx.add(v.k(4, 32), v.y32))->kind(), Kind::Constant);
  // Width-1 arithmetic is boolean logic.
  EXPECT_EQ(ctx.add(v.b1, v.c1), ctx.bvxor(v.b1, v.c1));
  EXPECT_EQ(ctx.mul(v.b1, v.c1), ctx.bvand(v.b1, v.c1));
}

TEST(ExprSimplify, ExtractAndConcat) {
  ExprContext ctx;
  Vars v(ctx);
  const ExprRef &x = v.x32;
  ExprRef hi = v.x16, lo = ctx.extract(v.y32, 0, 16);
  ExprRef cc = ctx.concat(hi, lo);
  ASSERT_EQ(cc->kind(), Kind::Concat);
  EXPECT_EQ(ctx.extract(cc, 16, 16), hi);
  EXPECT_EQ(ctx.extract(cc, 0, 16), lo);
  EXPECT_EQ(ctx.extract(cc, 4, 8), ctx.extract(v.y32, 4, 8));
  EXPECT_EQ(ctx.extract(cc, 20, 8), ctx.extract(hi, 4, 8));
  EXPECT_EQ(ctx.extract(x, 0, 32), x);
  EXPECT_EQ(ctx.extract(ctx.extract(x, 8, 16), 4, 4), ctx.extract(x, 12, 4));
  // Adjacent slices join back.
  EXPECT_EQ(ctx.concat(ctx.extract(x, 8, 8), ctx.extract(x, 0, 8)), ctx.extract(x, 0, 16));
  ExprRef b[4];
  for (unsigned i = 0; i < 4; ++i)
    b[i] = ctx.extract(x, 8 * i, 8);
  EXPECT_EQ(ctx.concat(b[3], ctx.concat(b[2], ctx.concat(b[1], b[0]))), x);
  EXPECT_EQ(ctx.concat(ctx.concat(b[3], b[2]), ctx.concat(b[1], b[0])), x);
  // Four little-endian byte stores of x read back as x.
  ExprRef arr = v.mem;
  for (unsigned i = 0; i < 4; ++i)
    arr = ctx.store(arr, v.k(100 + i, 32), b[i]);
  EXPECT_EQ(ctx.readLE(arr, v.k(100, 32), 4), x);
  EXPECT_EQ(ctx.readLE(arr, v.k(101, 32), 2), ctx.extract(x, 8, 16));
  // Concat with a zero high part is a zero-extension.
  ExprRef z = ctx.concat(v.k(0, 24), v.x8);
  EXPECT_EQ(z->kind(), Kind::ZExt);
  EXPECT_EQ(z, ctx.zext(v.x8, 32));
  // Slices of extensions.
  EXPECT_EQ(ctx.extract(ctx.zext(v.x8, 32), 0, 8), v.x8);
  EXPECT_EQ(ctx.extract(ctx.zext(v.x8, 32), 8, 16), v.k(0, 16));
  EXPECT_EQ(ctx.extract(ctx.sext(v.x8, 32), 2, 4), ctx.extract(v.x8, 2, 4));
}

TEST(ExprSimplify, Extensions) {
  ExprContext ctx;
  Vars v(ctx);
  EXPECT_EQ(ctx.sext(ctx.zext(v.x8, 16), 32), ctx.zext(v.x8, 32));
  EXPECT_EQ(ctx.sext(ctx.sext(v.x8, 16), 32), ctx.sext(v.x8, 32));
  EXPECT_EQ(ctx.zext(ctx.zext(v.x8, 16), 32), ctx.zext(v.x8, 32));
  EXPECT_EQ(ctx.zext(v.x8, 8), v.x8);
  EXPECT_EQ(ctx.sext(v.x8, 8), v.x8);
  EXPECT_EQ(ctx.sext(ctx.zext(v.x8, 16), 32)->kind(), Kind::ZExt);
}

TEST(ExprSimplify, Equalities) {
  ExprContext ctx;
  Vars v(ctx);
  // Out-of-range constants against extensions are false; in-range ones narrow.
  EXPECT_TRUE(ctx.eq(v.k(300, 16), ctx.zext(v.x8, 16))->isFalse());
  EXPECT_TRUE(ctx.eq(ctx.zext(v.x8, 16), v.k(256, 16))->isFalse());
  EXPECT_EQ(ctx.eq(v.k(5, 16), ctx.zext(v.x8, 16)), ctx.eq(v.k(5, 8), v.x8));
  EXPECT_TRUE(ctx.eq(v.k(0x80, 16), ctx.sext(v.x8, 16))->isFalse());
  EXPECT_EQ(ctx.eq(v.k(0xff80, 16), ctx.sext(v.x8, 16)), ctx.eq(v.k(0x80, 8), v.x8));
  EXPECT_TRUE(ctx.eq(v.x32, v.x32)->isTrue());
  // c1 == c2 + z is c1 - c2 == z.
  EXPECT_EQ(ctx.eq(v.k(10, 32), ctx.add(v.k(3, 32), v.x32)), ctx.eq(v.k(7, 32), v.x32));
  // Over a concat, both halves.
  ExprRef cc = ctx.concat(v.x8, v.y8);
  EXPECT_EQ(ctx.eq(v.k(0x1234, 16), cc),
            ctx.land(ctx.eq(v.k(0x12, 8), v.x8), ctx.eq(v.k(0x34, 8), v.y8)));
  // Booleans compared with constants.
  EXPECT_EQ(ctx.eq(ctx.trueExpr(), v.b1), v.b1);
  EXPECT_EQ(ctx.eq(ctx.falseExpr(), v.b1), ctx.lnot(v.b1));
}

TEST(ExprSimplify, ComparisonCanonicalForms) {
  ExprContext ctx;
  Vars v(ctx);
  const ExprRef &x = v.x32, &y = v.y32;
  ExprRef ne = ctx.ne(x, y);
  ASSERT_EQ(ne->kind(), Kind::Not);
  EXPECT_EQ(ne->kid(0), ctx.eq(x, y).get());
  EXPECT_EQ(ctx.ugt(x, y), ctx.ult(y, x));
  EXPECT_EQ(ctx.ugt(x, y)->kind(), Kind::Ult);
  EXPECT_EQ(ctx.uge(x, y), ctx.ule(y, x));
  EXPECT_EQ(ctx.uge(x, y)->kind(), Kind::Ule);
  EXPECT_EQ(ctx.sgt(x, y), ctx.slt(y, x));
  EXPECT_EQ(ctx.sgt(x, y)->kind(), Kind::Slt);
  EXPECT_EQ(ctx.sge(x, y), ctx.sle(y, x));
  EXPECT_EQ(ctx.sge(x, y)->kind(), Kind::Sle);
  // Negated comparisons flip.
  EXPECT_EQ(ctx.lnot(ctx.ult(x, y)), ctx.ule(y, x));
  EXPECT_EQ(ctx.lnot(ctx.ule(x, y)), ctx.ult(y, x));
  EXPECT_EQ(ctx.lnot(ctx.slt(x, y)), ctx.sle(y, x));
  EXPECT_EQ(ctx.lnot(ctx.sle(x, y)), ctx.slt(y, x));
  // Trivial comparisons.
  EXPECT_TRUE(ctx.ult(x, x)->isFalse());
  EXPECT_TRUE(ctx.ult(x, v.k(0, 32))->isFalse());
  EXPECT_TRUE(ctx.ult(v.k(0xffffffff, 32), x)->isFalse());
  EXPECT_TRUE(ctx.ule(v.k(0, 32), x)->isTrue());
  EXPECT_TRUE(ctx.ule(x, v.k(0xffffffff, 32))->isTrue());
  EXPECT_EQ(ctx.ule(x, v.k(0, 32)), ctx.eq(x, v.k(0, 32)));
  EXPECT_EQ(ctx.ult(v.k(0, 32), x), ctx.ne(x, v.k(0, 32)));
  EXPECT_TRUE(ctx.slt(x, x)->isFalse());
  EXPECT_TRUE(ctx.sle(x, x)->isTrue());
}

TEST(ExprSimplify, ArraysAndIte) {
  ExprContext ctx;
  Vars v(ctx);
  // Read over write at the same (symbolic) index.
  ExprRef st = ctx.store(v.mem, v.y32, v.x8);
  EXPECT_EQ(ctx.select(st, v.y32), v.x8);
  // Skipping writes to other constant indices.
  ExprRef st2 = ctx.store(ctx.store(v.mem, v.k(1, 32), v.x8), v.k(2, 32), v.y8);
  EXPECT_EQ(ctx.select(st2, v.k(1, 32)), v.x8);
  EXPECT_EQ(ctx.select(st2, v.k(3, 32)), ctx.select(v.mem, v.k(3, 32)));
  // A symbolic read cannot skip anything.
  ExprRef sel = ctx.select(st2, v.z32);
  ASSERT_EQ(sel->kind(), Kind::Select);
  EXPECT_EQ(sel->kid(0), st2.get());
  // An overwritten store is dead.
  EXPECT_EQ(ctx.store(ctx.store(v.mem, v.y32, v.x8), v.y32, v.y8), ctx.store(v.mem, v.y32, v.y8));
  // Ite.
  EXPECT_EQ(ctx.ite(ctx.trueExpr(), v.x32, v.y32), v.x32);
  EXPECT_EQ(ctx.ite(ctx.falseExpr(), v.x32, v.y32), v.y32);
  EXPECT_EQ(ctx.ite(v.b1, v.x32, v.x32), v.x32);
  EXPECT_EQ(ctx.ite(ctx.lnot(v.b1), v.x32, v.y32), ctx.ite(v.b1, v.y32, v.x32));
  EXPECT_EQ(ctx.ite(v.b1, ctx.trueExpr(), v.c1), ctx.lor(v.b1, v.c1));
  EXPECT_EQ(ctx.ite(v.b1, v.c1, ctx.falseExpr()), ctx.land(v.b1, v.c1));
  // Quantifiers over constant bodies vanish.
  ExprRef bound = ctx.symbol(ctx.declareSymbol("q", 8, SymbolClass::Bound));
  EXPECT_TRUE(ctx.forall(bound, ctx.trueExpr())->isTrue());
  EXPECT_TRUE(ctx.exists(bound, ctx.falseExpr())->isFalse());
}

TEST(ExprSimplify, DisabledBuildsExactly) {
  ExprContext ctx;
  Vars v(ctx);
  ctx.setSimplify(false);
  EXPECT_FALSE(ctx.simplifyEnabled());
  ExprRef e = ctx.add(v.x32, v.k(0, 32));
  ASSERT_EQ(e->kind(), Kind::Add);
  EXPECT_EQ(e->kid(0), v.x32.get());
  ExprRef c = ctx.add(v.k(1, 32), v.k(2, 32));
  EXPECT_EQ(c->kind(), Kind::Add);
  ctx.setSimplify(true);
  EXPECT_EQ(ctx.add(v.x32, v.k(0, 32)), v.x32);
}

// ---------------------------------------------------------------------------------------------
// Random expression trees. The same seed builds the same tree, either over symbols or, when
// given an assignment, over the constants it assigns (so that the tree folds completely).

const unsigned kTreeWidths[] = {1, 4, 7, 8, 16, 32, 33, 64, 65, 128};

struct TreeEnv {
  ExprContext &ctx;
  std::map<unsigned, std::vector<const SymbolDecl *>> vars; // two symbols per tree width
  const SymbolDecl *mem = nullptr;                          // 8-bit elements, 32-bit indices
  std::vector<u128> fixed;                                  // a constant array's contents

  explicit TreeEnv(ExprContext &c) : ctx(c) {
    for (unsigned w : kTreeWidths)
      for (int i = 0; i < 2; ++i)
        vars[w].push_back(
            ctx.declareSymbol("t" + std::to_string(w) + "_" + std::to_string(i), w,
                              SymbolClass::Input));
    mem = ctx.declareArray("tmem", 16, 32, 8);
    for (unsigned i = 0; i < 12; ++i)
      fixed.push_back(0x30 + 7 * i);
  }

  Assignment randomAssignment(std::mt19937_64 &rng) const {
    Assignment a;
    for (const auto &[w, decls] : vars)
      for (const SymbolDecl *d : decls)
        a.setScalar(d, randomValue(rng, w));
    std::vector<u128> bytes(16);
    for (u128 &b : bytes)
      b = rng() & 0xff;
    a.setArray(mem, bytes);
    return a;
  }
};

class TreeGen {
public:
  TreeGen(TreeEnv &env, uint64_t seed, const Assignment *concrete)
      : env_(env), ctx_(env.ctx), rng_(seed), concrete_(concrete) {}

  ExprRef bv(unsigned w, unsigned depth) {
    if (depth == 0 || pick(6) == 0)
      return leaf(w);
    switch (pick(16)) {
    case 5: return ctx_.bvnot(bv(w, depth - 1));
    case 6: return ctx_.neg(bv(w, depth - 1));
    case 7: {
      ExprRef c = bv(1, depth - 1);
      ExprRef t = bv(w, depth - 1);
      return ctx_.ite(c, t, bv(w, depth - 1));
    }
    case 8: {
      unsigned from = widthAtLeast(w);
      unsigned off = unsigned(pick(from - w + 1));
      return ctx_.extract(bv(from, depth - 1), off, w);
    }
    case 9: {
      if (w < 2)
        return leaf(w);
      unsigned lo = 1 + unsigned(pick(w - 1));
      if (pick(3) == 0) { // adjacent slices, which the simplifier re-joins
        ExprRef x = bv(w, depth - 1);
        return ctx_.concat(ctx_.extract(x, lo, w - lo), ctx_.extract(x, 0, lo));
      }
      ExprRef hi = bv(w - lo, depth - 1);
      return ctx_.concat(hi, bv(lo, depth - 1));
    }
    case 10: {
      unsigned from = 1 + unsigned(pick(w));
      ExprRef x = bv(from, depth - 1);
      return pick(2) ? ctx_.zext(x, w) : ctx_.sext(x, w);
    }
    case 11:
      if (w == 1)
        return comparison(depth);
      break;
    case 12:
      if (w == 8)
        return ctx_.select(array(depth - 1), index(depth - 1));
      break;
    case 13: {
      unsigned from = kTreeWidths[pick(std::size(kTreeWidths))];
      ExprRef x = bv(from, depth - 1);
      return pick(2) ? ctx_.zextOrTrunc(x, w) : ctx_.sextOrTrunc(x, w);
    }
    default: break;
    }
    return arith(w, depth);
  }

  ExprRef comparison(unsigned depth) {
    unsigned w = kTreeWidths[pick(std::size(kTreeWidths))];
    ExprRef a = bv(w, depth - 1);
    ExprRef b = bv(w, depth - 1);
    switch (pick(10)) {
    case 0: return ctx_.eq(a, b);
    case 1: return ctx_.ne(a, b);
    case 2: return ctx_.ult(a, b);
    case 3: return ctx_.ule(a, b);
    case 4: return ctx_.ugt(a, b);
    case 5: return ctx_.uge(a, b);
    case 6: return ctx_.slt(a, b);
    case 7: return ctx_.sle(a, b);
    case 8: return ctx_.sgt(a, b);
    default: return ctx_.sge(a, b);
    }
  }

  ExprRef arith(unsigned w, unsigned depth) {
    using Builder = ExprRef (ExprContext::*)(const ExprRef &, const ExprRef &);
    static const Builder ops[] = {&ExprContext::add,   &ExprContext::sub,   &ExprContext::mul,
                                  &ExprContext::udiv,  &ExprContext::sdiv,  &ExprContext::urem,
                                  &ExprContext::srem,  &ExprContext::bvand, &ExprContext::bvor,
                                  &ExprContext::bvxor, &ExprContext::shl,   &ExprContext::lshr,
                                  &ExprContext::ashr};
    Builder op = ops[pick(std::size(ops))];
    ExprRef a = bv(w, depth - 1);
    ExprRef b = pick(4) == 0 ? ctx_.constant(pick(w + 2), w) : bv(w, depth - 1);
    return (ctx_.*op)(a, b);
  }

  ExprRef index(unsigned depth) {
    switch (pick(4)) {
    case 0: return ctx_.constant(pick(20), 32);
    case 1: return bv(32, depth); // mostly far outside the written range
    default: return ctx_.zext(bv(4, depth), 32);
    }
  }

  ExprRef array(unsigned depth) {
    ExprRef arr;
    switch (depth == 0 ? pick(2) : pick(3)) {
    case 0:
      if (concrete_) {
        const std::vector<u128> *bytes = concrete_->array(env_.mem);
        arr = ctx_.constArray(*bytes, 8, 32, 0); // an array symbol's elements default to 0
      } else {
        arr = ctx_.symbol(env_.mem);
      }
      break;
    case 1: arr = ctx_.constArray(env_.fixed, 8, 32, 0x5a); break;
    default: {
      ExprRef c = bv(1, depth - 1);
      ExprRef t = array(depth - 1);
      arr = ctx_.ite(c, t, array(depth - 1));
    }
    }
    for (unsigned n = unsigned(pick(4)); n > 0; --n) {
      ExprRef i = index(depth == 0 ? 0 : depth - 1);
      arr = ctx_.store(arr, i, bv(8, depth == 0 ? 0 : depth - 1));
    }
    return arr;
  }

  ExprRef leaf(unsigned w) {
    if (pick(3) == 0)
      return ctx_.constant(randomValue(rng_, w), w);
    unsigned sw = widthAtLeast(w, /*tree widths only*/ true);
    const SymbolDecl *d = env_.vars[sw][pick(2)];
    ExprRef s = concrete_ ? ctx_.constant(concrete_->scalar(d), sw) : ctx_.symbol(d);
    return ctx_.extract(s, 0, w);
  }

  uint64_t pick(uint64_t n) { return rng_() % n; }

private:
  unsigned widthAtLeast(unsigned w, bool treeOnly = false) {
    std::vector<unsigned> options;
    for (unsigned tw : kTreeWidths)
      if (tw >= w)
        options.push_back(tw);
    if (treeOnly)
      return options.front() == w || pick(2) ? options.front() : options[pick(options.size())];
    options.push_back(w);
    return options[pick(options.size())];
  }

  TreeEnv &env_;
  ExprContext &ctx_;
  std::mt19937_64 rng_;
  const Assignment *concrete_;
};

// ---------------------------------------------------------------------------------------------
// Evaluation

TEST(Eval, AgreesWithConstantFoldingOnRandomTrees) {
  ExprContext ctx;
  TreeEnv env(ctx);
  std::mt19937_64 rng(2024);
  unsigned nonTrivial = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Assignment a = env.randomAssignment(rng);
    const unsigned w = kTreeWidths[seed % std::size(kTreeWidths)];
    const unsigned depth = 2 + unsigned(seed % 5);
    ExprRef symbolic = TreeGen(env, seed, nullptr).bv(w, depth);
    ExprRef folded = TreeGen(env, seed, &a).bv(w, depth);
    ASSERT_TRUE(folded->isConstant()) << "seed " << seed << ": " << toString(folded.get());
    ASSERT_EQ(symbolic->width(), w);
    ASSERT_EQ(folded->width(), w);
    if (!symbolic->isConstant())
      ++nonTrivial;
    const u128 got = evaluate(symbolic.get(), a);
    ASSERT_EQ(hex(got), hex(folded->value()))
        << "seed " << seed << "\n  " << toString(symbolic.get());
  }
  EXPECT_GT(nonTrivial, 2000u);
}

TEST(Eval, SimplifiedAndUnsimplifiedTreesAgree) {
  ExprContext ctx;
  TreeEnv env(ctx);
  std::mt19937_64 rng(77);
  for (uint64_t seed = 5000; seed < 7000; ++seed) {
    const unsigned w = kTreeWidths[seed % std::size(kTreeWidths)];
    const unsigned depth = 2 + unsigned(seed % 5);
    ctx.setSimplify(false);
    ExprRef raw = TreeGen(env, seed, nullptr).bv(w, depth);
    ctx.setSimplify(true);
    ExprRef simplified = TreeGen(env, seed, nullptr).bv(w, depth);
    for (int k = 0; k < 3; ++k) {
      Assignment a = env.randomAssignment(rng);
      ASSERT_EQ(hex(evaluate(raw.get(), a)), hex(evaluate(simplified.get(), a)))
          << "seed " << seed << "\n  raw:        " << toString(raw.get())
          << "\n  simplified: " << toString(simplified.get());
    }
  }
}

TEST(Eval, LeavesAndDefaults) {
  ExprContext ctx;
  Vars v(ctx);
  Assignment a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(evaluate(v.x32.get(), a), u128(0)); // unassigned scalars are 0
  a.setScalar(v.x32->symbol(), 0x1'0000'0005); // values are cut to the symbol's width
  EXPECT_EQ(evaluate(v.x32.get(), a), u128(5));
  EXPECT_EQ(a.scalar(v.x32->symbol()), u128(0x1'0000'0005));
  EXPECT_TRUE(a.has(v.x32->symbol()));
  EXPECT_FALSE(a.has(v.y32->symbol()));
  EXPECT_FALSE(a.empty());
  // Array elements default to 0 outside the assigned vector.
  a.setArray(v.mem->symbol(), {10, 11, 12});
  EXPECT_EQ(a.element(v.mem->symbol(), 1), u128(11));
  EXPECT_EQ(a.element(v.mem->symbol(), 3), u128(0));
  EXPECT_EQ(a.element(v.y32->symbol(), 0), u128(0));
  ASSERT_NE(a.array(v.mem->symbol()), nullptr);
  EXPECT_EQ(a.array(v.mem->symbol())->size(), 3u);
  EXPECT_EQ(a.array(v.x32->symbol()), nullptr);
  EXPECT_EQ(evaluate(ctx.select(v.mem, v.k(2, 32)).get(), a), u128(12));
  EXPECT_EQ(evaluate(ctx.select(v.mem, v.k(7, 32)).get(), a), u128(0));
  EXPECT_EQ(evaluate(ctx.select(v.mem, v.x32).get(), a), u128(0)); // index 5
  // Constant arrays use their default beyond their contents.
  std::vector<u128> data{1, 2, 3};
  ExprRef ca = ctx.constArray(data, 8, 32, 9);
  a.setScalar(v.y32->symbol(), 1);
  EXPECT_EQ(evaluate(ctx.select(ca, v.y32).get(), a), u128(2));
  EXPECT_EQ(evaluate(ctx.select(ca, v.x32).get(), a), u128(9));
  EXPECT_THROW(evaluate(v.mem.get(), a), std::invalid_argument);
}

TEST(Eval, MergeLaterBindingsWin) {
  ExprContext ctx;
  Vars v(ctx);
  Assignment a, b;
  a.setScalar(v.x32->symbol(), 1);
  a.setScalar(v.y32->symbol(), 2);
  a.setArray(v.mem->symbol(), {1, 2});
  b.setScalar(v.y32->symbol(), 20);
  b.setScalar(v.z32->symbol(), 30);
  b.setArray(v.mem->symbol(), {7});
  a.merge(b);
  EXPECT_EQ(a.scalar(v.x32->symbol()), u128(1));
  EXPECT_EQ(a.scalar(v.y32->symbol()), u128(20));
  EXPECT_EQ(a.scalar(v.z32->symbol()), u128(30));
  EXPECT_EQ(*a.array(v.mem->symbol()), std::vector<u128>{7});
  EXPECT_EQ(a.scalars().size(), 3u);
  EXPECT_EQ(a.arrays().size(), 1u);
}

TEST(Eval, SelectWalksStoresNewestFirst) {
  ExprContext ctx;
  Vars v(ctx);
  Assignment a;
  a.setScalar(v.x32->symbol(), 4);
  a.setScalar(v.y32->symbol(), 4);
  a.setScalar(v.z32->symbol(), 6);
  a.setArray(v.mem->symbol(), {0, 1, 2, 3, 4, 5, 6, 7});
  ExprRef arr = ctx.store(v.mem, v.x32, v.k(0xaa, 8));
  arr = ctx.store(arr, v.y32, v.k(0xbb, 8)); // same index as x32 under `a`: newest wins
  EXPECT_EQ(evaluate(ctx.select(arr, v.x32).get(), a), u128(0xbb));
  EXPECT_EQ(evaluate(ctx.select(arr, v.z32).get(), a), u128(6));
  a.setScalar(v.y32->symbol(), 6);
  EXPECT_EQ(evaluate(ctx.select(arr, v.x32).get(), a), u128(0xaa));
  EXPECT_EQ(evaluate(ctx.select(arr, v.z32).get(), a), u128(0xbb));
  // Ite over arrays picks a branch.
  ExprRef both = ctx.ite(v.b1, arr, v.mem);
  a.setScalar(v.b1->symbol(), 1);
  EXPECT_EQ(evaluate(ctx.select(both, v.x32).get(), a), u128(0xaa));
  a.setScalar(v.b1->symbol(), 0);
  EXPECT_EQ(evaluate(ctx.select(both, v.x32).get(), a), u128(4));
}

TEST(Eval, DeepStoreChains) {
  ExprContext ctx;
  Vars v(ctx);
  const uint64_t live0 = ctx.stats().live;
  {
    constexpr unsigned kDepth = 100000;
    ExprRef arr = v.mem;
    for (unsigned i = 0; i < kDepth; ++i) // symbolic indices: nothing folds
      arr = ctx.store(arr, ctx.add(v.k(i, 32), v.y32), v.k((i + 1) & 0xff, 8));
    Assignment a;
    a.setScalar(v.y32->symbol(), 1000);
    a.setScalar(v.x32->symbol(), 1);
    a.setArray(v.mem->symbol(), {9, 9, 9});
    a.setScalar(v.z32->symbol(), 1000 + 5); // the write of i = 5, deep down the chain
    EXPECT_EQ(evaluate(ctx.select(arr, v.z32).get(), a), u128(6));
    a.setScalar(v.z32->symbol(), 2);       // below every write
    EXPECT_EQ(evaluate(ctx.select(arr, v.z32).get(), a), u128(9));
    // A deep chain of dependent reads: each index is the value read before.
    ExprRef r = v.k(0, 32);
    for (unsigned i = 0; i < 50000; ++i)
      r = ctx.add(ctx.zext(ctx.select(v.mem, r), 32), v.k(1, 32));
    a.setArray(v.mem->symbol(), {});
    EXPECT_EQ(evaluate(r.get(), a), u128(1)); // every read is beyond the vector: 0 + 1
    EXPECT_GT(dagSize(arr.get()), size_t(kDepth));
  }
  EXPECT_EQ(ctx.stats().live, live0);
}

TEST(Eval, ArrayEquality) {
  ExprContext ctx;
  Vars v(ctx);
  const SymbolDecl *other = ctx.declareArray("mem2", 64, 32, 8);
  ExprRef mem2 = ctx.symbol(other);
  Assignment a;
  a.setArray(v.mem->symbol(), {1, 2, 3});
  a.setArray(other, {1, 2, 3, 0, 0});
  a.setScalar(v.x32->symbol(), 1);
  ExprRef same = ctx.eq(v.mem, mem2);
  EXPECT_EQ(evaluate(same.get(), a), u128(1)); // trailing zeros equal the default
  ExprRef written = ctx.eq(ctx.store(v.mem, v.x32, v.k(2, 8)), mem2);
  EXPECT_EQ(evaluate(written.get(), a), u128(1));
  ExprRef changed = ctx.eq(ctx.store(v.mem, v.x32, v.k(5, 8)), mem2);
  EXPECT_EQ(evaluate(changed.get(), a), u128(0));
  std::vector<u128> data{1, 2, 3};
  ExprRef c0 = ctx.constArray(data, 8, 32, 0), c7 = ctx.constArray(data, 8, 32, 7);
  EXPECT_EQ(evaluate(ctx.eq(v.mem, c0).get(), a), u128(1));
  EXPECT_EQ(evaluate(ctx.eq(v.mem, c7).get(), a), u128(0)); // differ beyond index 2
  // Over a tiny domain, every index can be written: the defaults then do not matter.
  std::vector<u128> none;
  ExprRef t0 = ctx.constArray(none, 8, 1, 0), t7 = ctx.constArray(none, 8, 1, 7);
  ExprRef full = ctx.store(ctx.store(t7, v.k(0, 1), v.k(0, 8)), v.k(1, 1), v.k(0, 8));
  EXPECT_EQ(evaluate(ctx.eq(full, t0).get(), a), u128(1));
  EXPECT_EQ(evaluate(ctx.eq(t7, t0).get(), a), u128(0));
}

TEST(Eval, Quantifiers) {
  ExprContext ctx;
  Vars v(ctx);
  ExprRef b = ctx.symbol(ctx.declareSymbol("b", 8, SymbolClass::Bound));
  ExprRef c = ctx.symbol(ctx.declareSymbol("c", 8, SymbolClass::Bound));
  Assignment a;
  a.setScalar(v.x8->symbol(), 0x3c);
  // forall b. (b & x) <= x
  EXPECT_EQ(evaluate(ctx.forall(b, ctx.ule(ctx.bvand(b, v.x8), v.x8)).get(), a), u128(1));
  // exists b. 3 * b == 7 (3 is invertible mod 256); exists b. 2 * b == 7 is false.
  EXPECT_EQ(evaluate(ctx.exists(b, ctx.eq(ctx.mul(v.k(3, 8), b), v.k(7, 8))).get(), a), u128(1));
  EXPECT_EQ(evaluate(ctx.exists(b, ctx.eq(ctx.mul(v.k(2, 8), b), v.k(7, 8))).get(), a), u128(0));
  // forall b. b <= x depends on x.
  ExprRef le = ctx.forall(b, ctx.ule(b, v.x8));
  EXPECT_EQ(evaluate(le.get(), a), u128(0));
  a.setScalar(v.x8->symbol(), 0xff);
  EXPECT_EQ(evaluate(le.get(), a), u128(1));
  // Nested: forall b. exists c. c == b + 1, and exists b. forall c. c <= b, and
  // forall b. exists c. b < c (false at b = 255).
  EXPECT_EQ(evaluate(ctx.forall(b, ctx.exists(c, ctx.eq(c, ctx.add(b, v.k(1, 8))))).get(), a),
            u128(1));
  EXPECT_EQ(evaluate(ctx.exists(b, ctx.forall(c, ctx.ule(c, b))).get(), a), u128(1));
  EXPECT_EQ(evaluate(ctx.forall(b, ctx.exists(c, ctx.ult(b, c))).get(), a), u128(0));
  // Bindings do not leak: the bound symbol also occurs free, and a subterm is shared.
  a.setScalar(b->symbol(), 5);
  a.setScalar(v.y8->symbol(), 77);
  ExprRef shared = ctx.eq(b, v.y8);
  ExprRef mixed = ctx.land(ctx.eq(b, v.k(5, 8)), ctx.exists(b, shared));
  EXPECT_EQ(evaluate(mixed.get(), a), u128(1));
  EXPECT_EQ(evaluate(ctx.land(ctx.lnot(shared), ctx.exists(b, shared)).get(), a), u128(1));
  EXPECT_EQ(evaluate(ctx.lor(shared, ctx.forall(b, shared)).get(), a), u128(0));
  EXPECT_EQ(a.scalar(b->symbol()), u128(5)); // the caller's assignment is untouched
  // A quantifier inside a bit-vector term.
  ExprRef inTerm = ctx.ite(ctx.forall(b, ctx.ule(b, v.x8)), v.k(1, 32), v.k(2, 32));
  EXPECT_EQ(evaluate(inTerm.get(), a), u128(1));
  // Too wide to enumerate.
  ExprRef wide = ctx.symbol(ctx.declareSymbol("w", 17, SymbolClass::Bound));
  ExprRef x17 = ctx.symbol(ctx.declareSymbol("x17", 17, SymbolClass::Input));
  EXPECT_THROW(evaluate(ctx.forall(wide, ctx.ule(wide, x17)).get(), a), std::domain_error);
  ExprRef w16 = ctx.symbol(ctx.declareSymbol("w16", 16, SymbolClass::Bound));
  EXPECT_EQ(evaluate(ctx.exists(w16, ctx.eq(w16, v.k(0xfffe, 16))).get(), a), u128(1));
}

TEST(Eval, QuantifiersMatchEnumerationOnRandomBodies) {
  ExprContext ctx;
  TreeEnv env(ctx);
  std::mt19937_64 rng(31337);
  // The bound variable is one of the environment's 8-bit symbols, bound by the quantifier.
  const SymbolDecl *bound = env.vars[8][0];
  ExprRef b = ctx.symbol(bound);
  unsigned sawTrue = 0, sawFalse = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    ExprRef body = TreeGen(env, seed, nullptr).bv(1, 3);
    ExprRef fa = ctx.forall(b, body), ex = ctx.exists(b, body);
    Assignment a = env.randomAssignment(rng);
    bool all = true, any = false;
    Assignment inner = a;
    for (unsigned v = 0; v < 256; ++v) {
      inner.setScalar(bound, v);
      bool t = evaluate(body.get(), inner) != 0;
      all &= t;
      any |= t;
    }
    EXPECT_EQ(evaluate(fa.get(), a), u128(all)) << "seed " << seed;
    EXPECT_EQ(evaluate(ex.get(), a), u128(any)) << "seed " << seed;
    (all ? sawTrue : sawFalse)++;
  }
  EXPECT_GT(sawFalse, 0u);
}

// Base addresses lie in [kAddressFloor, kAddressCeiling): null checks and comparisons of
// pointers into one object are decided when built, in every layout; anything a layout could
// change stays symbolic.
TEST(ExprSimplify, PointerFactsThatHoldInEveryLayout) {
  ExprContext ctx;
  ExprRef p = ctx.symbol(ctx.declareSymbol("p", 64, SymbolClass::Address, 16));
  ExprRef q = ctx.symbol(ctx.declareSymbol("q", 64, SymbolClass::Address, 16));
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 64, SymbolClass::Input));
  auto c = [&](u128 v) { return ctx.constant(v, 64); };
  ExprRef null = c(0), p8 = ctx.add(p, c(8)), p16 = ctx.add(p, c(16));
  EXPECT_TRUE(ctx.eq(p, null)->isFalse());
  EXPECT_TRUE(ctx.eq(null, p8)->isFalse());
  EXPECT_TRUE(ctx.ne(p16, null)->isTrue());
  EXPECT_TRUE(ctx.eq(p, c(100))->isFalse());                // below the floor
  EXPECT_TRUE(ctx.eq(p, c(kAddressCeiling))->isFalse());    // at the ceiling
  EXPECT_FALSE(ctx.eq(p, c(0x2000'0000))->isConstant());    // a layout may put it there
  EXPECT_FALSE(ctx.eq(ctx.add(p, c(-u128(0x2000'0000) & widthMask(64))), null)->isConstant());
  EXPECT_FALSE(ctx.eq(x, null)->isConstant());              // inputs are anything
  EXPECT_TRUE(ctx.ult(p, p8)->isTrue());
  EXPECT_TRUE(ctx.ule(p16, p8)->isFalse());
  EXPECT_TRUE(ctx.slt(p8, p16)->isTrue());
  EXPECT_TRUE(ctx.sle(p16, p16)->isTrue());
  EXPECT_TRUE(ctx.ult(ctx.add(p, c(1000)), p8)->isFalse()); // past the end still does not wrap
  EXPECT_FALSE(ctx.ult(p8, ctx.add(q, c(8)))->isConstant()); // two objects: the layout decides
  EXPECT_FALSE(ctx.ult(ctx.add(p, c(widthMask(64))), p)->isConstant()); // p - 1 may wrap
}

// Pointer arithmetic takes a shortcut for base + constant: it must build what add() builds.
TEST(ExprSimplify, AddConstantBuildsWhatAddBuilds) {
  ExprContext ctx;
  ExprRef p = ctx.symbol(ctx.declareSymbol("p", 64, SymbolClass::Address, 16));
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 64, SymbolClass::Input));
  ExprRef b = ctx.symbol(ctx.declareSymbol("b", 1, SymbolClass::Input));
  auto c = [&](u128 v, unsigned w = 64) { return ctx.constant(v, w); };
  const u128 minus8 = -u128(8) & widthMask(64);
  for (const ExprRef &a : {p, ctx.add(p, c(8)), ctx.add(p, c(minus8)), x, ctx.add(x, c(3)),
                           ctx.sub(c(5), x), ctx.mul(x, c(4)), c(12)})
    for (u128 k : {u128(0), u128(1), u128(8), minus8, widthMask(64), u128(1) << 64})
      EXPECT_EQ(ctx.addConstant(a, k).get(), ctx.add(a, c(k & widthMask(64))).get())
          << toString(a.get()) << " + " << toDecimal(k);
  EXPECT_EQ(ctx.addConstant(ctx.add(p, c(8)), minus8).get(), p.get());
  EXPECT_EQ(ctx.addConstant(b, 1).get(), ctx.add(b, c(1, 1)).get());
}

// ---------------------------------------------------------------------------------------------
// Rename hashing

TEST(ExprRenameHash, EqualUpToRenamingAddresses) {
  ExprContext ctx;
  ExprRef p = ctx.symbol(ctx.declareSymbol("p", 64, SymbolClass::Address, 16));
  ExprRef q = ctx.symbol(ctx.declareSymbol("q", 64, SymbolClass::Address, 16));
  ExprRef r = ctx.symbol(ctx.declareSymbol("r", 64, SymbolClass::Address, 32));
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 64, SymbolClass::Input));
  ExprRef y = ctx.symbol(ctx.declareSymbol("y", 64, SymbolClass::Input));
  EXPECT_TRUE(p->mentionsAddress());
  EXPECT_FALSE(x->mentionsAddress());
  EXPECT_EQ(p->renameHash(), q->renameHash());
  EXPECT_NE(p->hash(), q->hash());
  EXPECT_NE(p->renameHash(), r->renameHash());
  EXPECT_NE(x->renameHash(), y->renameHash());
  EXPECT_EQ(x->renameHash(), x->hash());

  // Many shapes, with commutative operators whose operand order depends on the hashes.
  using Shape = std::function<ExprRef(const ExprRef &base, const ExprRef &in)>;
  std::vector<Shape> shapes = {
      [&](const ExprRef &s, const ExprRef &in) { return ctx.add(s, in); },
      [&](const ExprRef &s, const ExprRef &in) { return ctx.add(s, ctx.constant(8, 64)); },
      [&](const ExprRef &s, const ExprRef &in) { return ctx.ult(in, s); },
      [&](const ExprRef &s, const ExprRef &in) { return ctx.eq(s, in); },
      [&](const ExprRef &s, const ExprRef &in) { return ctx.bvand(ctx.bvxor(s, in), in); },
      [&](const ExprRef &s, const ExprRef &in) {
        return ctx.mul(ctx.extract(s, 0, 32), ctx.extract(in, 0, 32));
      },
      [&](const ExprRef &s, const ExprRef &in) {
        return ctx.land(ctx.ule(s, in), ctx.eq(ctx.add(s, ctx.constant(4, 64)), in));
      },
  };
  for (size_t i = 0; i < shapes.size(); ++i) {
    ExprRef ep = shapes[i](p, x), eq = shapes[i](q, x), er = shapes[i](r, x), ey = shapes[i](p, y);
    EXPECT_TRUE(ep->mentionsAddress());
    EXPECT_EQ(ep->renameHash(), eq->renameHash()) << i << ": " << toString(ep.get()) << " vs "
                                                  << toString(eq.get());
    EXPECT_NE(ep->hash(), eq->hash()) << i;
    EXPECT_NE(ep->renameHash(), er->renameHash()) << i; // another object size
    if (i != 1) { // (shape 1 does not use its input)
      EXPECT_NE(ep->renameHash(), ey->renameHash()) << i; // inputs are never renamed
    }
  }
}

TEST(ExprRenameHash, RandomTreesOverManyAddresses) {
  // Renaming a set of equally tagged addresses consistently keeps the rename hash, whatever
  // order the hashes put commutative operands in.
  ExprContext ctx;
  std::vector<ExprRef> bases;
  for (int i = 0; i < 40; ++i)
    bases.push_back(ctx.symbol(
        ctx.declareSymbol("base" + std::to_string(i), 32, SymbolClass::Address, 64)));
  ExprRef in = ctx.symbol(ctx.declareSymbol("in", 32, SymbolClass::Input));
  std::mt19937_64 rng(5);
  unsigned differentHash = 0;
  for (int round = 0; round < 300; ++round) {
    const size_t first = rng() % 39;
    auto build = [&](size_t baseIndex, uint64_t seed) {
      std::mt19937_64 g(seed);
      ExprRef e = bases[baseIndex];
      for (int step = 0; step < 6; ++step) {
        ExprRef other = g() % 2 ? in : ctx.constant(g() % 100, 32);
        switch (g() % 5) {
        case 0: e = ctx.add(e, other); break;
        case 1: e = ctx.mul(other, e); break;
        case 2: e = ctx.bvxor(e, ctx.add(other, bases[baseIndex])); break;
        case 3: e = ctx.sub(e, other); break;
        default: e = ctx.bvor(other, e); break;
        }
      }
      return e;
    };
    const uint64_t seed = rng();
    ExprRef a = build(first, seed), b = build(first + 1, seed);
    if (!a->mentionsAddress())
      continue;
    EXPECT_EQ(a->renameHash(), b->renameHash())
        << toString(a.get()) << "\n" << toString(b.get());
    differentHash += a->hash() != b->hash();
  }
  EXPECT_GT(differentHash, 200u);
}

// ---------------------------------------------------------------------------------------------
// Import

TEST(ExprImport, RebuildsWithTheSameHashAndText) {
  ExprContext from;
  TreeEnv env(from);
  ExprRef p = from.symbol(from.declareSymbol("p", 32, SymbolClass::Address, 24));
  ExprRef bound = from.symbol(from.declareSymbol("k", 8, SymbolClass::Bound));
  std::vector<ExprRef> exprs;
  for (uint64_t seed = 1; seed <= 200; ++seed)
    exprs.push_back(TreeGen(env, seed, nullptr).bv(kTreeWidths[seed % 10], 4));
  exprs.push_back(from.ult(from.add(p, from.constant(4, 32)), from.symbol(env.vars[32][0])));
  exprs.push_back(from.forall(bound, from.ule(from.bvand(bound, from.symbol(env.vars[8][1])),
                                              from.symbol(env.vars[8][1]))));
  ExprContext to;
  for (const ExprRef &e : exprs) {
    ExprRef copy = to.import(e.get());
    ASSERT_EQ(&copy->context(), &to);
    EXPECT_EQ(copy->hash(), e->hash()) << toString(e.get());
    EXPECT_EQ(copy->renameHash(), e->renameHash());
    EXPECT_EQ(toString(copy.get()), toString(e.get()));
    EXPECT_EQ(dagSize(copy.get()), dagSize(e.get()));
    EXPECT_EQ(to.import(e.get()), copy); // importing again finds the same node
    EXPECT_EQ(from.import(e.get()), e);  // importing into its own context is the identity
  }
  const SymbolDecl *pp = to.findSymbol("p");
  ASSERT_NE(pp, nullptr);
  EXPECT_EQ(pp->cls, SymbolClass::Address);
  EXPECT_EQ(pp->tag, 24u);
  // A symbol of the same name but another sort cannot be imported.
  ExprContext clash;
  clash.declareSymbol("p", 16, SymbolClass::Address, 24);
  EXPECT_THROW(clash.import(exprs[200].get()), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Small traversals

// Operands that do not fit their node are refused where the node is built, in every build
// type, with simplification on and off (a folded constant of mixed widths must not slip through).
TEST(ExprShape, MalformedNodesAreRefusedAtConstruction) {
  for (bool simplify : {true, false}) {
    ExprContext ctx;
    ctx.setSimplify(simplify);
    ExprRef x64 = ctx.symbol(ctx.declareSymbol("x64", 64, SymbolClass::Input));
    ExprRef y32 = ctx.symbol(ctx.declareSymbol("y32", 32, SymbolClass::Input));
    ExprRef c32 = ctx.constant(4, 32), c64 = ctx.constant(4, 64);
    const SymbolDecl *arr = ctx.declareArray("a", 16);
    ExprRef a = ctx.symbol(arr);
    std::vector<std::function<ExprRef()>> bad = {
        [&] { return ctx.add(x64, y32); },           [&] { return ctx.add(c64, c32); },
        [&] { return ctx.sub(x64, y32); },           [&] { return ctx.mul(c32, x64); },
        [&] { return ctx.udiv(x64, y32); },          [&] { return ctx.srem(y32, x64); },
        [&] { return ctx.bvand(x64, y32); },         [&] { return ctx.bvor(x64, c32); },
        [&] { return ctx.bvxor(c64, y32); },         [&] { return ctx.shl(x64, y32); },
        [&] { return ctx.lshr(x64, c32); },          [&] { return ctx.ashr(y32, c64); },
        [&] { return ctx.eq(x64, y32); },            [&] { return ctx.eq(c64, c32); },
        [&] { return ctx.ult(x64, y32); },           [&] { return ctx.ule(c32, x64); },
        [&] { return ctx.slt(x64, c32); },           [&] { return ctx.sle(y32, x64); },
        [&] { return ctx.ite(ctx.eq(x64, c64), x64, y32); },
        [&] { return ctx.ite(x64, x64, x64); },      // condition not boolean
        [&] { return ctx.extract(y32, 16, 32); },    [&] { return ctx.zext(x64, 32); },
        [&] { return ctx.sext(x64, 32); },           [&] { return ctx.select(a, x64); },
        [&] { return ctx.store(a, y32, x64); },      [&] { return ctx.add(a, a); },
        [&] { return ctx.concat(x64, ctx.concat(x64, c32)); }, // 160 bits
    };
    for (size_t i = 0; i < bad.size(); ++i)
      EXPECT_THROW(bad[i](), MalformedExpr) << "case " << i << " simplify=" << simplify;
    // Well-formed neighbours of the cases above still build.
    EXPECT_NO_THROW(ctx.add(x64, ctx.zext(y32, 64)));
    EXPECT_NO_THROW(ctx.ite(ctx.eq(x64, c64), x64, ctx.sext(y32, 64)));
    EXPECT_NO_THROW(ctx.select(a, y32));
    EXPECT_NO_THROW(ctx.store(a, c32, ctx.constant(1, 8)));
    try {
      ctx.add(x64, y32);
    } catch (const MalformedExpr &e) {
      EXPECT_NE(std::string(e.what()).find("64 and 32 bits"), std::string::npos) << e.what();
    }
  }
}

TEST(ExprUtil, SymbolCollectorAndDagSize) {
  ExprContext ctx;
  Vars v(ctx);
  ExprRef sel = ctx.select(ctx.store(v.mem, v.y32, v.x8), v.z32);
  ExprRef e = ctx.add(v.x32, ctx.zext(sel, 32));
  SymbolCollector c;
  c.add(e.get());
  std::set<const SymbolDecl *> got(c.symbols().begin(), c.symbols().end());
  EXPECT_EQ(c.symbols().size(), got.size()); // each once
  EXPECT_EQ(got, (std::set<const SymbolDecl *>{v.x32->symbol(), v.mem->symbol(), v.y32->symbol(),
                                               v.x8->symbol(), v.z32->symbol()}));
  // Adding more keeps the first-visit order and adds only new symbols.
  std::vector<const SymbolDecl *> before = c.symbols();
  c.add(ctx.add(v.x32, v.y32).get());
  EXPECT_EQ(c.symbols(), before);
  c.add(ctx.bvand(v.x16, ctx.extract(v.x32, 0, 16)).get());
  ASSERT_EQ(c.symbols().size(), before.size() + 1);
  EXPECT_EQ(c.symbols().back(), v.x16->symbol());
  // Bound variables are collected too.
  ExprRef b = ctx.symbol(ctx.declareSymbol("b", 8, SymbolClass::Bound));
  SymbolCollector q;
  q.add(ctx.forall(b, ctx.ule(b, v.x8)).get());
  EXPECT_EQ(q.symbols().size(), 2u);
  SymbolCollector none;
  none.add(v.k(3, 8).get());
  EXPECT_TRUE(none.symbols().empty());
  // Cleared, a collector starts over: what it saw before counts as new again.
  c.clear();
  EXPECT_TRUE(c.symbols().empty());
  c.add(ctx.add(v.y32, v.x32).get());
  EXPECT_EQ(std::set<const SymbolDecl *>(c.symbols().begin(), c.symbols().end()),
            (std::set<const SymbolDecl *>{v.x32->symbol(), v.y32->symbol()}));

  // dagSize counts distinct nodes, leaves included.
  EXPECT_EQ(dagSize(v.x32.get()), 1u);
  EXPECT_EQ(dagSize(ctx.add(v.x32, v.y32).get()), 3u);
  ExprRef t = ctx.add(v.x32, v.y32);
  EXPECT_EQ(dagSize(ctx.mul(t, t).get()), 4u);           // shared subterm counted once
  EXPECT_EQ(dagSize(ctx.udiv(t, v.x32).get()), 4u);      // x32 counted once
  EXPECT_EQ(dagSize(sel.get()), 6u);                     // select, store, mem, y32, x8, z32
}

// The flat set behind DAG walks: against std::set over enough pointers to grow its table many
// times, with repeats and neighbouring addresses (which share high bits and so hash alike).
TEST(PointerSetTest, AgreesWithStdSetThroughGrowth) {
  std::vector<uint64_t> storage(5000);
  std::mt19937_64 rng(7);
  PointerSet<uint64_t> set;
  std::set<const uint64_t *> reference;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t *p = &storage[rng() % storage.size()];
    EXPECT_EQ(set.insert(p), reference.insert(p).second) << i;
    ASSERT_EQ(set.size(), reference.size());
  }
  EXPECT_LT(reference.size(), storage.size()); // some are new in the sweep below
  for (const uint64_t &x : storage)
    EXPECT_EQ(set.insert(&x), reference.insert(&x).second);
  EXPECT_EQ(set.size(), storage.size());
  for (const uint64_t &x : storage)
    EXPECT_FALSE(set.insert(&x));

  // Cleared, it is empty however full it was, and fills again as a new set would.
  for (int round = 0; round < 3; ++round) {
    set.clear();
    EXPECT_EQ(set.size(), 0u);
    for (size_t i = 0; i < storage.size(); i += 2)
      EXPECT_TRUE(set.insert(&storage[i])) << round << " " << i;
    for (size_t i = 0; i < storage.size(); ++i)
      EXPECT_EQ(set.insert(&storage[i]), i % 2 == 1) << round << " " << i;
    EXPECT_EQ(set.size(), storage.size());
  }
}

} // namespace

// A shared subterm doubling at each level: toString would write it 2^60 times; describe gives
// the size instead once the term is past the bound.
TEST(ExprUtil, DescribeWritesSmallTermsAndSizesLargeOnes) {
  ExprContext ctx;
  Vars v(ctx);
  ExprRef small = ctx.add(v.x32, v.k(1, 32));
  EXPECT_EQ(describe(small.get()), toString(small.get()));
  ExprRef doubling = v.x32;
  for (int i = 0; i < 60; ++i)
    doubling = ctx.bvxor(doubling, ctx.lshr(doubling, v.y32));
  const size_t nodes = dagSize(doubling.get());
  EXPECT_GT(nodes, size_t(60));
  EXPECT_EQ(describe(doubling.get(), 50), "(a term of " + std::to_string(nodes) + " nodes)");
}

// Facts are matched by their atoms: a subterm that asserts a known fact in another form (x <= y
// for a known !(y < x)) is true, one that denies it false, wherever it stands in the term,
// within the walk that looks for them first and past it. The terms here are temporaries, freed
// between rewrites: one kept rewrite (a solver layer keeps one per constraint set) must not
// take a new term at a freed one's address for it.
TEST(ExprUtil, AssumingDecidesTheFormsOfAKnownAtom) {
  ExprContext ctx;
  Vars v(ctx);
  const ExprRef less = ctx.ult(v.x32, v.y32), equal = ctx.eq(v.x8, v.y8);
  Assuming assuming(ctx, std::vector<ExprRef>{less, v.b1, ctx.lnot(equal)});
  EXPECT_EQ(assuming(ctx.land(less, v.c1)), v.c1);
  EXPECT_EQ(assuming(ctx.lor(ctx.ule(v.y32, v.x32), v.c1)), v.c1); // y <= x denies x < y
  EXPECT_EQ(assuming(ctx.ite(ctx.ule(v.y32, v.x32), v.x32, v.z32)), v.z32);
  EXPECT_EQ(assuming(ctx.land(v.b1, v.c1)), v.c1);
  EXPECT_EQ(assuming(ctx.lor(ctx.lnot(v.b1), v.c1)), v.c1);
  EXPECT_EQ(assuming(ctx.lor(equal, v.c1)), v.c1);
  EXPECT_TRUE(assuming(ctx.lnot(equal))->isTrue());
  const ExprRef unrelated = ctx.land(ctx.slt(v.y32, v.x32), v.c1);
  EXPECT_EQ(assuming(unrelated), unrelated);

  // A term larger than the first walk: the rewrite still finds the fact deep inside it.
  ExprRef big = v.z32;
  for (int i = 0; i < 40; ++i)
    big = ctx.add(ctx.mul(big, v.k(3, 32)), v.k(i, 32));
  const ExprRef bigCondition = ctx.eq(big, v.y32);
  EXPECT_GT(dagSize(bigCondition.get()), size_t(64));
  EXPECT_EQ(assuming(bigCondition), bigCondition);
  EXPECT_EQ(assuming(ctx.land(bigCondition, ctx.ule(v.y32, v.x32))), ctx.falseExpr());
  EXPECT_EQ(assuming(ctx.lor(ctx.land(bigCondition, v.c1), ctx.lnot(less))), ctx.land(bigCondition, v.c1));
}
