// SMT-LIB 2 printing: the script's text, sharing, and (when a z3 binary is installed) what a
// real solver says about the scripts.
#include "cairn/expr/SmtLib.h"
#include "cairn/expr/Fold.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include <unistd.h>

using namespace cairn;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

size_t count(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

// Parentheses outside quoted symbols balance.
bool balanced(const std::string &text) {
  long depth = 0;
  bool quoted = false;
  for (char c : text) {
    if (c == '|')
      quoted = !quoted;
    else if (!quoted && c == '(')
      ++depth;
    else if (!quoted && c == ')' && --depth < 0)
      return false;
  }
  return depth == 0 && !quoted;
}

struct SmtLibTest : ::testing::Test {
  ExprContext ctx;
  ExprRef bv(const std::string &name, unsigned w) {
    return ctx.symbol(ctx.declareSymbol(name, w, SymbolClass::Input));
  }
  ExprRef c(u128 v, unsigned w) { return ctx.constant(v, w); }
  std::string print(std::vector<ExprRef> assertions, std::string_view logic = "") {
    std::string s = toSmtLib2(assertions, logic);
    EXPECT_TRUE(balanced(s)) << s;
    return s;
  }
};

TEST_F(SmtLibTest, SmallQuery) {
  ExprRef x = bv("x", 32);
  ExprRef input = ctx.symbol(ctx.declareArray("input", 16, 32, 8));
  std::string s = print({ctx.ult(x, c(10, 32)), ctx.eq(ctx.select(input, x), c(5, 8))});
  EXPECT_EQ(s.rfind("(set-logic QF_ABV)\n", 0), 0u) << s;
  EXPECT_TRUE(contains(s, "(declare-fun x () (_ BitVec 32))\n")) << s;
  EXPECT_TRUE(contains(s, "(declare-fun input () (Array (_ BitVec 32) (_ BitVec 8)))\n")) << s;
  EXPECT_TRUE(contains(s, "(assert (bvult x (_ bv10 32)))\n")) << s;
  EXPECT_TRUE(contains(s, "(assert (= #b00000101 (select input x)))\n")) << s;
  EXPECT_EQ(count(s, "(assert "), 2u);
  EXPECT_EQ(count(s, "declare-fun"), 2u);
  EXPECT_TRUE(s.ends_with("(check-sat)\n")) << s;
  EXPECT_TRUE(contains(print({ctx.ult(x, c(10, 32))}, "QF_BV"), "(set-logic QF_BV)\n"));
}

TEST_F(SmtLibTest, SharingKeepsDeepDagsSmall) {
  ExprRef x = bv("x0", 64);
  ExprRef e = x;
  for (int i = 0; i < 60; ++i)
    e = ctx.add(e, e);
  std::string s = print({ctx.eq(e, c(0, 64)), ctx.ne(e, x)});
  EXPECT_LT(s.size(), 5000u) << s.substr(0, 2000);
  EXPECT_EQ(count(s, "(define-fun "), 60u) << s; // 59 shared sums and the top one, used twice
}

TEST_F(SmtLibTest, BooleansAndBitsConvert) {
  ExprRef a = bv("a", 8), b = bv("b", 8), flag = bv("flag", 1);
  ExprRef cmp = ctx.ult(a, b);
  // A comparison used as data, a width-1 symbol used as a condition and asserted.
  std::string s = print(
      {ctx.eq(ctx.concat(cmp, ctx.extract(a, 0, 7)), b), flag, ctx.eq(ctx.ite(flag, a, b), a)});
  EXPECT_TRUE(contains(s, "(declare-fun flag () (_ BitVec 1))")) << s;
  EXPECT_TRUE(contains(s, "(concat (ite (bvult a b) #b1 #b0) ((_ extract 6 0) a))")) << s;
  EXPECT_TRUE(contains(s, "(assert (= flag #b1))")) << s;
  EXPECT_TRUE(contains(s, "(ite (= flag #b1) a b)")) << s;
  // Connectives over comparisons are Bool connectives.
  std::string t = print({ctx.lor(ctx.ult(a, b), ctx.bvnot(ctx.eq(a, b)))});
  EXPECT_TRUE(contains(t, "(assert (or ")) << t;
  EXPECT_TRUE(contains(t, "(not (= a b))") || contains(t, "(not (= b a))")) << t;
  // A width-1 select is data; asserted it is compared with #b1.
  ExprRef bits = ctx.symbol(ctx.declareArray("bits", 8, 32, 1));
  std::string u = print({ctx.select(bits, ctx.zext(a, 32))});
  EXPECT_TRUE(contains(u, "(assert (= (select bits ((_ zero_extend 24) a)) #b1))")) << u;
}

TEST_F(SmtLibTest, Constants) {
  ExprRef w = bv("w", 128);
  std::string s = print({ctx.ult(w, c(~u128(0), 128)), ctx.ne(bv("t", 3), c(5, 3))});
  EXPECT_TRUE(contains(s, "(_ bv340282366920938463463374607431768211455 128)")) << s;
  EXPECT_TRUE(contains(s, "#b101")) << s;
  EXPECT_TRUE(contains(print({ctx.trueExpr()}), "(assert true)"));
}

TEST_F(SmtLibTest, ConstArrays) {
  std::vector<u128> values = {7, 0, 9, 0};
  ExprRef table = ctx.constArray(values, 8, 32, 0);
  ExprRef i = bv("i", 32);
  std::string s = print({ctx.eq(ctx.select(table, i), c(9, 8))});
  EXPECT_TRUE(contains(s, "((as const (Array (_ BitVec 32) (_ BitVec 8))) #b00000000)")) << s;
  EXPECT_EQ(count(s, "(store "), 2u) << s;
  EXPECT_TRUE(contains(s, "(_ bv2 32) #b00001001)")) << s;
  EXPECT_TRUE(contains(s, "(set-logic ALL)")) << s;
}

TEST_F(SmtLibTest, Quantifiers) {
  ExprRef x = bv("x", 8);
  ExprRef v = ctx.symbol(ctx.declareSymbol("v", 8, SymbolClass::Bound));
  ExprRef sq = ctx.mul(v, v);
  std::string s =
      print({ctx.forall(v, ctx.ule(v, x)), ctx.exists(v, ctx.eq(ctx.add(sq, sq), ctx.add(x, sq)))});
  EXPECT_TRUE(contains(s, "(set-logic ABV)")) << s;
  EXPECT_TRUE(contains(s, "(assert (forall ((v (_ BitVec 8))) (bvule v x)))")) << s;
  EXPECT_FALSE(contains(s, "declare-fun v ")) << s;
  // v*v is shared inside the body: let-bound there, not defined at the top.
  EXPECT_TRUE(contains(s, "(exists ((v (_ BitVec 8))) (let ((")) << s;
  EXPECT_EQ(count(s, "(bvmul v v)"), 1u) << s;
  EXPECT_EQ(count(s, "define-fun"), 0u) << s;
}

TEST_F(SmtLibTest, NamesAreQuotedOrChanged) {
  ExprRef spaced = bv("a b", 8), piped = bv("x|y", 8), builtin = bv("bvadd", 8);
  ExprRef digit = bv("1st", 8), clash = bv("x_y", 8);
  std::vector<SmtLibName> names;
  std::vector<ExprRef> as = {ctx.ult(spaced, piped), ctx.ult(builtin, digit),
                             ctx.ult(clash, piped)};
  std::string s = toSmtLib2(as, "", &names);
  EXPECT_TRUE(balanced(s)) << s;
  EXPECT_TRUE(contains(s, "(declare-fun |a b| ()")) << s;
  EXPECT_TRUE(contains(s, "(declare-fun |1st| ()")) << s;
  EXPECT_FALSE(contains(s, "declare-fun bvadd ")) << s;
  EXPECT_FALSE(contains(s, "x|y")) << s;
  ASSERT_EQ(names.size(), 5u);
  std::set<std::string> distinct;
  for (const SmtLibName &n : names)
    distinct.insert(n.name);
  EXPECT_EQ(distinct.size(), 5u) << s; // x|y and x_y stay apart
}

TEST_F(SmtLibTest, RejectsNonBooleans) {
  std::vector<ExprRef> as = {bv("x", 8)};
  EXPECT_THROW(toSmtLib2(as), std::invalid_argument);
}

TEST_F(SmtLibTest, DeepStoreChainsPrint) {
  ExprRef mem = ctx.symbol(ctx.declareArray("mem", 1 << 20, 32, 8));
  ExprRef i = bv("i", 32), x = bv("x", 8);
  ExprRef chain = mem;
  for (unsigned k = 0; k < 100000; ++k)
    chain = ctx.store(chain, ctx.add(c(k, 32), i), x);
  std::string s = print({ctx.eq(ctx.select(chain, c(3, 32)), x)});
  EXPECT_EQ(count(s, "(store "), 100000u);
  EXPECT_LT(s.size(), 100000u * 60);
}

// ---------------------------------------------------------------------------------------------
// Through a real solver

bool haveZ3() {
  static const bool have = std::system("command -v z3 > /dev/null 2>&1") == 0;
  return have;
}

std::string runZ3(const std::string &script) {
  static int counter = 0;
  std::string path = ::testing::TempDir() + "cairn-smtlib-" + std::to_string(::getpid()) + "-" +
                     std::to_string(counter++) + ".smt2";
  std::ofstream(path) << script;
  std::string out;
  if (FILE *p = ::popen(("z3 -T:60 -smt2 " + path + " 2>&1").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
      out.append(buf, n);
    ::pclose(p);
  }
  std::remove(path.c_str());
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
    out.pop_back();
  return out;
}

struct SmtLibZ3Test : SmtLibTest {
  void SetUp() override {
    if (!haveZ3())
      GTEST_SKIP() << "no z3 binary";
  }
  std::string check(std::vector<ExprRef> assertions) { return runZ3(toSmtLib2(assertions)); }
};

TEST_F(SmtLibZ3Test, SimpleQueries) {
  ExprRef x = bv("x", 32);
  EXPECT_EQ(check({ctx.ult(x, c(10, 32)), ctx.eq(x, c(12, 32))}), "unsat");
  EXPECT_EQ(check({ctx.ult(x, c(10, 32)), ctx.ult(c(7, 32), x)}), "sat");
  ExprRef mem = ctx.symbol(ctx.declareArray("mem", 16, 32, 8));
  ExprRef stored = ctx.store(mem, x, c(42, 8));
  EXPECT_EQ(check({ctx.ne(ctx.select(stored, x), c(42, 8))}), "unsat");
}

TEST_F(SmtLibZ3Test, SharedChainMeansWhatItSays) {
  ExprRef x = bv("x0", 64);
  ExprRef e = x;
  for (int i = 0; i < 60; ++i)
    e = ctx.add(e, e);
  EXPECT_EQ(check({ctx.ne(e, ctx.shl(x, c(60, 64)))}), "unsat");
  EXPECT_EQ(check({ctx.eq(e, c(u128(1) << 60, 64))}), "sat");
}

TEST_F(SmtLibZ3Test, ConstArraysAndWidthOne) {
  std::vector<u128> values = {1, 2, 0, 0};
  ExprRef table = ctx.constArray(values, 8, 32, 0);
  ExprRef i = bv("i", 32);
  EXPECT_EQ(check({ctx.eq(ctx.select(table, i), c(2, 8)), ctx.ne(i, c(1, 32))}), "unsat");
  EXPECT_EQ(check({ctx.eq(ctx.select(table, i), c(0, 8))}), "sat");
  ExprRef a = bv("a", 8), b = bv("b", 8), flag = bv("flag", 1);
  ExprRef both = ctx.concat(flag, ctx.ult(a, b));
  EXPECT_EQ(check({ctx.eq(both, c(3, 2)), ctx.ule(b, a)}), "unsat");
  EXPECT_EQ(check({ctx.eq(both, c(2, 2)), ctx.ule(b, a), flag}), "sat");
}

TEST_F(SmtLibZ3Test, Quantifiers) {
  ExprRef x = bv("x", 8);
  ExprRef v = ctx.symbol(ctx.declareSymbol("v", 8, SymbolClass::Bound));
  EXPECT_EQ(check({ctx.forall(v, ctx.ule(v, x))}), "sat");
  EXPECT_EQ(check({ctx.forall(v, ctx.ult(v, x))}), "unsat");
  ExprRef sq = ctx.mul(v, v);
  EXPECT_EQ(check({ctx.exists(v, ctx.eq(ctx.add(sq, sq), c(8, 8)))}), "sat");
  // Nested, the inner body mentioning the outer variable.
  ExprRef u = ctx.symbol(ctx.declareSymbol("u", 8, SymbolClass::Bound));
  ExprRef covers = ctx.forall(u, ctx.eq(ctx.bvand(u, v), u)); // v is all ones
  EXPECT_EQ(check({ctx.exists(v, covers)}), "sat");
  EXPECT_EQ(check({ctx.exists(v, ctx.land(covers, ctx.ne(v, c(255, 8))))}), "unsat");
  // A closed quantifier used twice is defined once.
  ExprRef allBelow = ctx.forall(u, ctx.eq(ctx.bvand(u, x), u)); // x is all ones
  std::vector<ExprRef> as = {allBelow, ctx.implies(allBelow, ctx.ne(x, c(255, 8)))};
  std::string script = toSmtLib2(as);
  EXPECT_TRUE(contains(script, "() Bool (forall ((u (_ BitVec 8)))")) << script;
  EXPECT_EQ(runZ3(script), "unsat") << script;
}

// Cairn's constant folding and the printed operators agree with Z3 on every operation.
TEST_F(SmtLibZ3Test, FoldingAgreesWithTheSolver) {
  ctx.setSimplify(false);
  std::mt19937_64 rng(7);
  const Kind binary[] = {Kind::Add,  Kind::Sub, Kind::Mul, Kind::UDiv, Kind::SDiv, Kind::URem,
                         Kind::SRem, Kind::And, Kind::Or,  Kind::Xor,  Kind::Shl,  Kind::LShr,
                         Kind::AShr, Kind::Eq,  Kind::Ult, Kind::Ule,  Kind::Slt,  Kind::Sle};
  std::vector<ExprRef> wrong; // each true iff folding disagrees with the printed operation
  for (unsigned w : {1u, 3u, 8u, 33u, 64u, 65u, 128u}) {
    for (int round = 0; round < 6; ++round) {
      auto pick = [&]() -> u128 {
        switch (rng() % 5) {
        case 0: return 0;
        case 1: return widthMask(w);
        case 2: return u128(1) << (w - 1);
        case 3: return (rng() % (w + 2)) & widthMask(w);
        default: return ((u128(rng()) << 64) | rng()) & widthMask(w);
        }
      };
      u128 a = pick(), b = pick();
      for (Kind k : binary) {
        ExprRef ops[] = {c(a, w), c(b, w)};
        ExprRef e = ctx.build(k, ops);
        unsigned rw = isComparison(k) ? 1 : w;
        wrong.push_back(ctx.bvnot(ctx.eq(e, c(foldBinary(k, a, b, w), rw))));
      }
      ExprRef x = c(a, w);
      wrong.push_back(ctx.bvnot(ctx.eq(ctx.bvnot(x), c(foldUnary(Kind::Not, a, w, w), w))));
      if (w < 128)
        wrong.push_back(
            ctx.bvnot(ctx.eq(ctx.sext(x, 128), c(foldUnary(Kind::SExt, a, w, 128), 128))));
      unsigned off = unsigned(rng() % w);
      unsigned len = 1 + unsigned(rng() % (w - off));
      wrong.push_back(ctx.bvnot(
          ctx.eq(ctx.extract(x, off, len), c(foldUnary(Kind::Extract, a, w, len, off), len))));
    }
  }
  ExprRef any = ctx.falseExpr();
  for (const ExprRef &e : wrong)
    any = ctx.lor(any, e);
  EXPECT_EQ(check({any}), "unsat");
}

// Random expressions over symbols, built a second time over the symbols' values (which the
// builders fold to constants): the solver must agree that the symbolic ones take those values.
// Width-1 subterms land in every position, as Bools and as bits.
class RandomSmtTerms {
public:
  RandomSmtTerms(ExprContext &ctx, uint64_t seed, bool concrete, std::mt19937_64 &values)
      : ctx_(ctx), rng_(seed) {
    for (unsigned w : kWidths)
      for (unsigned k = 0; k < 2; ++k) {
        u128 v = ((u128(values()) << 64) | values()) & widthMask(w);
        std::string name = "s" + std::to_string(w) + "_" + std::to_string(k);
        ExprRef sym =
            ctx.symbol(ctx.findSymbol(name) ? ctx.findSymbol(name)
                                            : ctx.declareSymbol(name, w, SymbolClass::Input));
        pool_[w].push_back(concrete ? ctx.constant(v, w) : sym);
        if (!concrete)
          bindings.push_back(ctx.eq(sym, ctx.constant(v, w)));
      }
    std::vector<u128> contents(256);
    for (u128 &v : contents)
      v = values() & 0xff;
    ExprRef table = ctx.constArray(contents, 8, 8, 0);
    if (concrete) {
      arrays_.push_back(table);
    } else {
      const SymbolDecl *m =
          ctx.findSymbol("mem") ? ctx.findSymbol("mem") : ctx.declareArray("mem", 256, 8, 8);
      arrays_.push_back(ctx.symbol(m));
      bindings.push_back(ctx.eq(arrays_.back(), table));
    }
    arrays_.push_back(ctx.constArray(std::vector<u128>{1, 2, 3}, 8, 8, 9));
  }

  void step() {
    const unsigned w = kWidths[rng_() % std::size(kWidths)];
    ExprRef r;
    switch (rng_() % 12) {
    case 0:
    case 1: {
      static const Kind kinds[] = {Kind::Add,  Kind::Sub,  Kind::Mul, Kind::UDiv, Kind::SDiv,
                                   Kind::URem, Kind::SRem, Kind::And, Kind::Or,   Kind::Xor,
                                   Kind::Shl,  Kind::LShr, Kind::AShr};
      Kind k = kinds[rng_() % std::size(kinds)];
      ExprRef ops[] = {pick(w), pick(w)};
      r = ctx_.build(k, ops);
      break;
    }
    case 2:
    case 3: {
      static const Kind kinds[] = {Kind::Eq, Kind::Ult, Kind::Ule, Kind::Slt, Kind::Sle};
      ExprRef ops[] = {pick(w), pick(w)};
      r = ctx_.build(kinds[rng_() % std::size(kinds)], ops);
      break;
    }
    case 4: r = ctx_.bvnot(pick(w)); break;
    case 5: {
      ExprRef c = pick(1);
      ExprRef t = pick(w);
      r = ctx_.ite(c, t, pick(w));
      break;
    }
    case 6: {
      ExprRef hi = pick(1);
      r = ctx_.concat(hi, pick(w == 128 ? 8 : w));
      break;
    }
    case 7: {
      unsigned from = kWidths[rng_() % std::size(kWidths)];
      unsigned off = unsigned(rng_() % from);
      unsigned len = 1 + unsigned(rng_() % (from - off));
      r = ctx_.extract(pick(from), off, len);
      break;
    }
    case 8: {
      unsigned from = rng_() % 2 ? 1 : 8;
      ExprRef x = pick(from);
      r = rng_() % 2 ? ctx_.zext(x, 16) : ctx_.sext(x, 16);
      break;
    }
    case 9: {
      ExprRef a = pickArray();
      r = ctx_.select(a, pick(8));
      break;
    }
    case 10: {
      ExprRef a = pickArray();
      ExprRef i = pick(8);
      arrays_.push_back(ctx_.store(a, i, pick(8)));
      return;
    }
    default: {
      ExprRef c = pick(1);
      ExprRef a = pickArray();
      arrays_.push_back(ctx_.ite(c, a, pickArray()));
      return;
    }
    }
    pool_[r->width()].push_back(r);
    made.push_back(r);
  }

  std::vector<ExprRef> made;     // in creation order
  std::vector<ExprRef> bindings; // symbol = value, for the symbolic run

private:
  static constexpr unsigned kWidths[] = {1, 4, 8, 16, 128};

  ExprRef pick(unsigned w) {
    std::vector<ExprRef> &p = pool_[w];
    uint64_t r = rng_();
    if (p.empty() || r % 8 == 0)
      return ctx_.constant((u128(rng_()) << 64 | rng_()) & widthMask(w), w);
    // Favour recent results, so expressions grow deep.
    return p[p.size() - 1 - (r / 8) % std::min<size_t>(p.size(), 6)];
  }
  ExprRef pickArray() {
    return arrays_[arrays_.size() - 1 - rng_() % std::min<size_t>(arrays_.size(), 4)];
  }

  ExprContext &ctx_;
  std::mt19937_64 rng_;
  std::map<unsigned, std::vector<ExprRef>> pool_;
  std::vector<ExprRef> arrays_;
};

TEST_F(SmtLibZ3Test, RandomExpressionsMeanWhatTheyFoldTo) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 v1(seed * 1000), v2(seed * 1000);
    RandomSmtTerms sym(ctx, seed, false, v1), con(ctx, seed, true, v2);
    for (int i = 0; i < 150; ++i) {
      sym.step();
      con.step();
    }
    ASSERT_EQ(sym.made.size(), con.made.size());
    std::vector<ExprRef> assertions = sym.bindings;
    ExprRef anyWrong = ctx.falseExpr();
    size_t compared = 0;
    for (size_t i = 0; i < sym.made.size(); ++i) {
      ASSERT_EQ(sym.made[i]->width(), con.made[i]->width());
      if (!con.made[i]->isConstant() || sym.made[i]->isConstant())
        continue;
      anyWrong = ctx.lor(anyWrong, ctx.ne(sym.made[i], con.made[i]));
      ++compared;
    }
    EXPECT_GT(compared, 50u);
    assertions.push_back(anyWrong);
    std::string script = toSmtLib2(assertions);
    EXPECT_EQ(runZ3(script), "unsat") << "seed " << seed << "\n" << script.substr(0, 4000);
  }
}

TEST_F(SmtLibZ3Test, OddNamesParse) {
  ExprRef spaced = bv("a b", 8), piped = bv("x|y", 8), builtin = bv("bvadd", 8);
  ExprRef dotted = bv(".hidden", 8), let = bv("?t0", 8);
  EXPECT_EQ(check({ctx.ult(spaced, piped), ctx.ult(builtin, dotted), ctx.ult(let, spaced),
                   ctx.ult(ctx.add(let, let), ctx.mul(ctx.add(let, let), spaced))}),
            "sat");
}

} // namespace
