// The core backends (Z3 and cvc5) on the same formulas: bit-vector arithmetic up to 128 bits,
// width-1 values as booleans and as data, arrays, quantifiers, models and timeouts; and the
// shape of a query that Z3's choice between its core and its default tactic reads.
#include "cairn/expr/Assignment.h"
#include "cairn/solver/Backends.h"

#include "BackendUtil.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace cairn;

namespace {

struct BackendTest : ::testing::TestWithParam<std::string> {
  ExprContext ctx;
  std::unique_ptr<Solver> solver = make(0);

  std::unique_ptr<Solver> make(double timeout) const {
    return GetParam() == "z3" ? createZ3Solver(timeout) : createCvc5Solver(timeout);
  }

  ExprRef sym(const char *name, unsigned width) {
    return ctx.symbol(ctx.declareSymbol(name, width, SymbolClass::Input));
  }
  ExprRef c(u128 v, unsigned width) { return ctx.constant(v, width); }

  SolverResponse check(std::vector<ExprRef> constraints, ExprRef e, bool model = true,
                       std::vector<ExprRef> terms = {}) {
    return solver->check(Query(std::move(constraints), std::move(e), std::move(terms)), model);
  }

  // Checks that a Sat response's model satisfies every constraint of the query.
  void expectModelSatisfies(const SolverResponse &r, const std::vector<ExprRef> &constraints) {
    ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
    for (const ExprRef &e : constraints)
      EXPECT_TRUE(evaluatesTrue(e.get(), r.model)) << toString(e.get());
  }
};

TEST_P(BackendTest, Name) { EXPECT_EQ(solver->name(), GetParam()); }

TEST_P(BackendTest, SimpleSatAndUnsat) {
  ExprRef x = sym("x", 8);
  // x * x == 4 has solutions (2, 254, ...); x * x == 2 has none modulo 256.
  ExprRef sq = ctx.mul(x, x);
  SolverResponse r = check({}, ctx.eq(sq, c(4, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  u128 v = r.model.scalar(x->symbol());
  EXPECT_EQ(u128(v * v) & 0xff, 4u);
  expectModelSatisfies(r, {ctx.eq(sq, c(4, 8))});

  EXPECT_EQ(check({}, ctx.eq(sq, c(2, 8))).result, SatResult::Unsat);

  // Conjunction of constraints and the expression.
  ExprRef y = sym("y", 32);
  std::vector<ExprRef> cs{ctx.ult(y, c(10, 32)), ctx.ugt(y, c(5, 32))};
  r = check(cs, ctx.ne(y, c(7, 32)));
  cs.push_back(ctx.ne(y, c(7, 32)));
  expectModelSatisfies(r, cs);
  EXPECT_EQ(check({ctx.ult(y, c(10, 32))}, ctx.ugt(y, c(20, 32))).result, SatResult::Unsat);

  // Signed comparisons, division and shifts (SMT-LIB semantics: x / 0 == all ones).
  ExprRef z = sym("z", 16);
  EXPECT_EQ(check({ctx.slt(z, c(0, 16))}, ctx.sgt(z, c(5, 16))).result, SatResult::Unsat);
  EXPECT_EQ(check({}, ctx.ne(ctx.udiv(z, c(0, 16)), c(0xffff, 16))).result, SatResult::Unsat);
  r = check({ctx.eq(ctx.shl(z, c(4, 16)), c(0x1230, 16))},
            ctx.eq(ctx.ashr(z, c(15, 16)), c(0xffff, 16)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(z->symbol()) & 0x8fff, 0x8123u);
}

TEST_P(BackendTest, WideConstants) {
  const u128 a = (u128(0xfedcba9876543210ull) << 64) | 0x0123456789abcdefull;
  const u128 b = (u128(0x8000000000000001ull) << 64) | 0xffffffffffffffffull;
  ExprRef x = sym("x128", 128);
  // x - a == b has the single solution a + b (mod 2^128).
  SolverResponse r = check({}, ctx.eq(ctx.sub(x, c(a, 128)), c(b, 128)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_TRUE(r.model.scalar(x->symbol()) == u128(a + b));

  // (x * 3) * inv(3) == x, with the multiplicative inverse of 3 modulo 2^128: an identity.
  u128 inv3 = 1;
  for (int i = 0; i < 7; ++i) // Newton iteration doubles the correct bits each step
    inv3 *= 2 - 3 * inv3;
  ASSERT_TRUE(u128(inv3 * 3) == 1);
  ctx.setSimplify(false); // keep the simplifier from folding the identity away
  ExprRef prod = ctx.mul(ctx.mul(x, c(3, 128)), c(inv3, 128));
  ExprRef differs = ctx.ne(prod, x);
  ctx.setSimplify(true);
  EXPECT_EQ(check({}, differs).result, SatResult::Unsat);

  // A value above 2^127 through zero extension of a 100-bit symbol.
  ExprRef w = sym("w100", 100);
  r = check({}, ctx.eq(ctx.zext(w, 128), c(a, 128)));
  EXPECT_EQ(r.result, SatResult::Unsat); // a has bits above 100
  r = check({}, ctx.eq(ctx.zext(w, 128), c(a & widthMask(100), 128)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_TRUE(r.model.scalar(w->symbol()) == (a & widthMask(100)));
}

TEST_P(BackendTest, BooleansAsData) {
  ExprRef p = sym("p", 1), q = sym("q", 1);
  // concat(p, q) == 0b10: p true, q false.
  SolverResponse r = check({}, ctx.eq(ctx.concat(p, q), c(2, 2)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(p->symbol()), 1u);
  EXPECT_EQ(r.model.scalar(q->symbol()), 0u);

  // Comparisons concatenated and extended as data.
  ExprRef x = sym("bx", 8), y = sym("by", 8);
  ExprRef lt = ctx.ult(x, c(5, 8)), eq = ctx.eq(y, c(3, 8));
  std::vector<ExprRef> cs{ctx.eq(ctx.concat(lt, eq), c(3, 2)),
                          ctx.eq(ctx.add(ctx.zext(lt, 8), ctx.zext(eq, 8)), c(2, 8))};
  r = check(cs, ctx.eq(ctx.sext(ctx.land(lt, eq), 8), c(0xff, 8)));
  expectModelSatisfies(r, cs);
  EXPECT_LT(r.model.scalar(x->symbol()), 5u);
  EXPECT_EQ(r.model.scalar(y->symbol()), 3u);

  // A boolean and its negation cannot both be set.
  EXPECT_EQ(check({}, ctx.eq(ctx.concat(p, ctx.lnot(p)), c(3, 2))).result, SatResult::Unsat);
  // Xor/or of booleans, an ite on a boolean as data, and extract of a bit as a boolean.
  ExprRef bit = ctx.extract(x, 7, 1);
  r = check({ctx.bvxor(p, bit), ctx.lor(q, bit)},
            ctx.eq(ctx.ite(p, c(0xa, 4), ctx.concat(ctx.concat(q, bit), c(0, 2))), c(0xa, 4)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(p->symbol()), 1u);
  EXPECT_EQ(r.model.scalar(x->symbol()) >> 7, 0u);
  EXPECT_EQ(r.model.scalar(q->symbol()), 1u);
}

TEST_P(BackendTest, SelectOverStore) {
  ExprRef arr = ctx.symbol(ctx.declareArray("mem", 16));
  ExprRef i = sym("i", 32), j = sym("j", 32);
  ExprRef stored = ctx.store(arr, i, c(42, 8));
  // Reading back where we wrote gives the written value.
  EXPECT_EQ(check({ctx.eq(i, j)}, ctx.ne(ctx.select(stored, j), c(42, 8))).result,
            SatResult::Unsat);
  // Elsewhere it gives the old contents.
  std::vector<ExprRef> cs{ctx.ne(i, j), ctx.eq(ctx.select(arr, j), c(7, 8)), ctx.ult(j, c(16, 32))};
  SolverResponse r = check(cs, ctx.eq(ctx.select(stored, j), c(7, 8)));
  expectModelSatisfies(r, cs);
  EXPECT_EQ(check(cs, ctx.ne(ctx.select(stored, j), c(7, 8))).result, SatResult::Unsat);
}

TEST_P(BackendTest, ConstArrays) {
  const u128 values[] = {1, 2, 3, 4};
  ExprRef table = ctx.constArray(values);
  ExprRef i = sym("ci", 32);
  SolverResponse r = check({}, ctx.eq(ctx.select(table, i), c(3, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(i->symbol()), 2u);
  EXPECT_EQ(check({}, ctx.eq(ctx.select(table, i), c(9, 8))).result, SatResult::Unsat);

  // A default value: indices past the contents read it.
  const u128 few[] = {5, 0, 5};
  ExprRef withDefault = ctx.constArray(few, 8, 32, 5);
  r = check({}, ctx.eq(ctx.select(withDefault, i), c(0, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(i->symbol()), 1u);
  EXPECT_EQ(check({ctx.ugt(i, c(1000, 32))}, ctx.ne(ctx.select(withDefault, i), c(5, 8))).result,
            SatResult::Unsat);

  // Wide elements, a store over a constant array, and equality/ite of arrays.
  const u128 wide[] = {(u128(1) << 100) + 7, 9};
  ExprRef wideTable = ctx.constArray(wide, 128, 8);
  ExprRef k = sym("ck", 8);
  r = check({}, ctx.eq(ctx.select(wideTable, k), c((u128(1) << 100) + 7, 128)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(k->symbol()), 0u);

  ExprRef other = ctx.store(table, c(0, 32), c(1, 8)); // same contents as `table`
  ExprRef flag = sym("cflag", 1);
  ExprRef chosen = ctx.ite(flag, table, ctx.store(table, c(3, 32), c(0, 8)));
  EXPECT_EQ(check({}, ctx.ne(ctx.select(other, c(2, 32)), c(3, 8))).result, SatResult::Unsat);
  r = check({}, ctx.eq(ctx.select(chosen, c(3, 32)), c(0, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(flag->symbol()), 0u);
  ExprRef sa = ctx.symbol(ctx.declareArray("same", 4));
  r = check({ctx.eq(sa, table)}, ctx.eq(ctx.select(sa, c(1, 32)), c(2, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  ASSERT_NE(r.model.array(sa->symbol()), nullptr);
  EXPECT_EQ(*r.model.array(sa->symbol()), (std::vector<u128>{1, 2, 3, 4}));
}

// Reads of constant tables at symbolic indices, as the lookup trees of ConstArrayReads.h make
// them: an element of a word table at 4*x (no adder, a tree over x), an index wrapping around,
// a wide index with a range test, a store over the table.
TEST_P(BackendTest, ConstArrayLookups) {
  std::vector<u128> bytes(1024);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = (i * 167 + (i >> 3) * 31 + 7) & 0xff;
  ExprRef table = ctx.constArray(bytes, 8, 64, 0xee);
  ExprRef x = sym("lx", 8);
  ExprRef base = ctx.mul(c(4, 64), ctx.zext(x, 64));
  auto word = [&](size_t e) { return bytes[4 * e] | bytes[4 * e + 1] << 8 | bytes[4 * e + 2] << 16 | bytes[4 * e + 3] << 24; };
  ExprRef read = ctx.readLE(table, base, 4);
  SolverResponse r = check({}, ctx.eq(read, c(word(200), 32)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(word(size_t(r.model.scalar(x->symbol()))), word(200));
  EXPECT_EQ(check({}, ctx.eq(read, c(0x01020304, 32))).result, SatResult::Unsat);

  // Offset 2^64 - 4 + 4*x: x = 0 reads past the end (the default), x = 1 reads byte 0.
  ExprRef wrapped = ctx.select(table, ctx.add(c(~u128(0) << 2 & widthMask(64), 64), base));
  r = check({ctx.ult(x, c(2, 8))}, ctx.eq(wrapped, c(bytes[0], 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(x->symbol()), 1u);
  EXPECT_EQ(check({ctx.eq(x, c(0, 8))}, ctx.ne(wrapped, c(0xee, 8))).result, SatResult::Unsat);

  // A wide index: in range it reads the table, past it the default.
  ExprRef i = sym("li", 64);
  ExprRef at = ctx.select(table, i);
  r = check({ctx.ugt(i, c(500, 64))}, ctx.eq(at, c(bytes[777], 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  u128 found = r.model.scalar(i->symbol());
  EXPECT_EQ(found < 1024 ? bytes[size_t(found)] : 0xee, bytes[777]);
  EXPECT_EQ(check({ctx.uge(i, c(1024, 64))}, ctx.ne(at, c(0xee, 8))).result, SatResult::Unsat);

  // A store over the table, read at the store's index and elsewhere.
  ExprRef j = sym("lj", 64);
  ExprRef stored = ctx.store(table, j, c(0xab, 8));
  EXPECT_EQ(check({ctx.eq(i, j)}, ctx.ne(ctx.select(stored, i), c(0xab, 8))).result, SatResult::Unsat);
  r = check({ctx.ne(i, j), ctx.ult(i, c(1024, 64))}, ctx.eq(ctx.select(stored, i), c(bytes[5], 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(bytes[size_t(r.model.scalar(i->symbol()))], bytes[5]);
}

TEST_P(BackendTest, ModelOfSymbolicByteArray) {
  ExprRef input = ctx.symbol(ctx.declareArray("input", 6));
  auto byte = [&](unsigned i) { return ctx.select(input, c(i, 32)); };
  std::vector<ExprRef> cs{
      ctx.eq(ctx.readLE(input, c(0, 32), 4), c(0x12345678, 32)),
      ctx.eq(ctx.add(byte(4), byte(5)), c(200, 8)),
      ctx.ult(byte(5), byte(4)),
  };
  ExprRef unrelated = sym("unrelated", 16);
  ExprRef empty = ctx.symbol(ctx.declareArray("empty", 0));
  SolverResponse r = check(cs, ctx.ne(byte(4), c(150, 8)), true,
                           {unrelated, ctx.select(empty, c(0, 32))});
  cs.push_back(ctx.ne(byte(4), c(150, 8)));
  expectModelSatisfies(r, cs);
  const std::vector<u128> *bytes = r.model.array(input->symbol());
  ASSERT_NE(bytes, nullptr);
  ASSERT_EQ(bytes->size(), 6u);
  EXPECT_EQ((*bytes)[0], 0x78u);
  EXPECT_EQ((*bytes)[3], 0x12u);
  EXPECT_EQ(u128((*bytes)[4] + (*bytes)[5]) & 0xff, 200u);
  // Symbols of the terms are bound too; an array of size 0 has no elements.
  EXPECT_TRUE(r.model.has(unrelated->symbol()));
  ASSERT_NE(r.model.array(empty->symbol()), nullptr);
  EXPECT_TRUE(r.model.array(empty->symbol())->empty());

  // No model unless asked for.
  r = check(cs, ctx.trueExpr(), false);
  EXPECT_EQ(r.result, SatResult::Sat);
  EXPECT_TRUE(r.model.empty());
}

TEST_P(BackendTest, WidthOneArrays) {
  ExprRef bits = ctx.symbol(ctx.declareArray("bits", 4, 32, 1));
  auto bit = [&](unsigned i) { return ctx.select(bits, c(i, 32)); };
  std::vector<ExprRef> cs{ctx.land(bit(0), ctx.lnot(bit(1))), ctx.eq(bit(2), bit(0))};
  ExprRef stored = ctx.store(bits, c(3, 32), ctx.ult(bit(0), bit(2)));
  SolverResponse r = check(cs, ctx.lnot(ctx.select(stored, c(3, 32))));
  cs.push_back(ctx.lnot(ctx.select(stored, c(3, 32))));
  expectModelSatisfies(r, cs);
  const std::vector<u128> *v = r.model.array(bits->symbol());
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->size(), 4u);
  EXPECT_EQ((*v)[0], 1u);
  EXPECT_EQ((*v)[1], 0u);
  EXPECT_EQ((*v)[2], 1u);
}

TEST_P(BackendTest, Quantifiers) {
  ExprRef cst = sym("qc", 8);
  ExprRef x = ctx.symbol(ctx.declareSymbol("qx", 8, SymbolClass::Bound));
  // forall x. x + c != x holds exactly when c != 0.
  ExprRef all = ctx.forall(x, ctx.ne(ctx.add(x, cst), x));
  SolverResponse r = check({}, all);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_NE(r.model.scalar(cst->symbol()), 0u);
  EXPECT_FALSE(r.model.has(x->symbol())); // bound variables get no value
  EXPECT_EQ(check({ctx.eq(cst, c(0, 8))}, all).result, SatResult::Unsat);

  // exists x. 2 * x == c holds exactly when c is even.
  ExprRef some = ctx.exists(x, ctx.eq(ctx.mul(x, c(2, 8)), cst));
  r = check({ctx.ugt(cst, c(100, 8))}, some);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(cst->symbol()) % 2, 0u);
  EXPECT_EQ(check({ctx.eq(ctx.extract(cst, 0, 1), c(1, 1))}, some).result, SatResult::Unsat);

  // The backend keeps working on quantifier-free queries afterwards.
  EXPECT_EQ(check({}, ctx.eq(cst, c(3, 8))).result, SatResult::Sat);
}

TEST_P(BackendTest, DeepStoreChain) {
  // Translation is iterative: a chain of thousands of stores is no problem for it.
  ExprRef arr = ctx.symbol(ctx.declareArray("deep", 4096));
  ExprRef v = sym("dv", 8);
  ExprRef chain = arr;
  for (unsigned i = 0; i < 3000; ++i)
    chain = ctx.store(chain, c(i, 32), ctx.add(v, c(i & 0xff, 8)));
  ExprRef idx = sym("didx", 32);
  std::vector<ExprRef> cs{ctx.eq(idx, c(2000, 32))};
  SolverResponse r = check(cs, ctx.eq(ctx.select(chain, idx), c(0, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(v->symbol()), u128(256 - (2000 & 0xff)));
  ASSERT_NE(r.model.array(arr->symbol()), nullptr);
  EXPECT_EQ(r.model.array(arr->symbol())->size(), 4096u);

  // Far deeper queries are answered, or refused with a reason (cvc5 would overflow the stack).
  for (unsigned i = 3000; i < 20000; ++i)
    chain = ctx.store(chain, c(i, 32), ctx.add(v, c(i & 0xff, 8)));
  r = check({ctx.eq(idx, c(15000, 32))}, ctx.eq(ctx.select(chain, idx), c(0, 8)), false);
  EXPECT_NE(r.result, SatResult::Unsat);
  if (r.result == SatResult::Unknown) {
    EXPECT_FALSE(r.reason.empty());
  }
}

TEST_P(BackendTest, TimeoutGivesUnknownPromptly) {
  // Proving that p*q (two 31-bit primes) has no factorisation in 64-bit factors but p*q and
  // q*p: unsat, and far too hard to prove in the time given.
  const uint64_t p = 2147483647ull, q = 2147483629ull;
  ExprRef x = sym("fx", 64), y = sym("fy", 64);
  ExprRef product = ctx.mul(ctx.zext(x, 128), ctx.zext(y, 128));
  std::vector<ExprRef> cs{ctx.ugt(x, c(1, 64)), ctx.ugt(y, c(1, 64)), ctx.ne(x, c(p, 64)),
                          ctx.ne(x, c(q, 64))};
  auto hard = make(0.05);
  auto start = std::chrono::steady_clock::now();
  SolverResponse r = hard->check(Query(cs, ctx.eq(product, c(u128(p) * q, 128))), true);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.result, SatResult::Unknown);
  EXPECT_FALSE(r.reason.empty());
  EXPECT_LT(seconds, 5.0);
  std::cout << "[ " << GetParam() << " ] timeout reason: \"" << r.reason << "\" after " << seconds
            << " s\n";

  // The same instance answers easy queries afterwards, with a timeout a loaded machine meets.
  hard->setTimeout(10);
  r = hard->check(Query({}, ctx.eq(ctx.add(x, y), c(5, 64))), true);
  EXPECT_EQ(r.result, SatResult::Sat) << r.reason;
  r = hard->check(Query({ctx.ult(x, c(100, 64)), ctx.ult(y, c(100, 64))},
                         ctx.eq(ctx.mul(x, y), c(6, 64))),
                   true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(uint64_t(r.model.scalar(x->symbol()) * r.model.scalar(y->symbol())), 6u);

  std::vector<SolverLayerStats> stats;
  hard->collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].layer, GetParam());
  EXPECT_EQ(stats[0].queries, 3u);
  EXPECT_EQ(stats[0].answered, 2u);
  EXPECT_EQ(stats[0].unknown, 1u);
  EXPECT_GT(stats[0].seconds, 0.0);
}

// Time limits that end checks anywhere in the middle of satisfiable factorisations: every
// answer is Sat with a right model or Unknown, and the process lives (cvc5 1.0.3 with its
// default bit-vector solver aborted in CaDiCaL when the limit stopped it late in a check).
TEST_P(BackendTest, TimeLimitsMidCheckNeverAbort) {
  // Permutations of symbolic bytes read and written at symbolic indices, as tests/bench/arrays/
  // permutation.c asks about them, each with its own time limit from 1 to 24 ms.
  ExprRef a = ctx.symbol(ctx.declareArray("ma", 8)), idx = ctx.symbol(ctx.declareArray("mi", 8));
  auto at = [&](const ExprRef &array, const ExprRef &i) { return ctx.select(array, ctx.zext(i, 32)); };
  unsigned sat = 0, unknown = 0;
  for (unsigned n = 0; n < 48; ++n) {
    std::vector<ExprRef> cs;
    ExprRef seen = ctx.constArray(std::vector<u128>(8, 0), 8, 32);
    for (unsigned k = 0; k < 8; ++k) {
      ExprRef v = ctx.select(a, ctx.constant(k, 32));
      cs.push_back(ctx.ult(v, c(8, 8)));
      cs.push_back(ctx.eq(at(seen, v), c(0, 8)));
      seen = ctx.store(seen, ctx.zext(v, 32), c(1, 8));
    }
    for (unsigned k = 0; k < 1 + n % 4; ++k) {
      ExprRef j = ctx.select(idx, ctx.constant(k, 32));
      cs.push_back(ctx.ult(j, c(8, 8)));
      cs.push_back(ctx.eq(at(a, at(a, j)), c((n + k) % 8, 8)));
    }
    auto limited = make(0.001 * double(1 + n % 24));
    SolverResponse r = limited->check(Query(cs, ctx.trueExpr(), {a, idx}), true);
    if (r.result == SatResult::Unknown) {
      ++unknown;
      continue;
    }
    ++sat;
    expectModelSatisfies(r, cs);
  }
  std::cout << "[ " << GetParam() << " ] " << sat << " sat, " << unknown << " unknown\n";
}

TEST_P(BackendTest, BackendErrorsBecomeUnknown) {
  // An 8-bit "constraint" is ill-sorted for the solver: its exception must not escape.
  ExprRef x = sym("ex", 8);
  SolverResponse r = check({ctx.add(x, c(1, 8))}, ctx.eq(x, c(1, 8)));
  EXPECT_EQ(r.result, SatResult::Unknown);
  EXPECT_EQ(r.reason.rfind(GetParam() + ": ", 0), 0u) << r.reason;
  // The backend recovers for the next query.
  r = check({}, ctx.eq(x, c(1, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(x->symbol()), 1u);

  std::vector<SolverLayerStats> stats;
  solver->collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].queries, 2u);
  EXPECT_EQ(stats[0].unknown, 1u);
  EXPECT_EQ(stats[0].answered, 1u);
}

TEST_P(BackendTest, RepeatedQueriesReuseDeclarations) {
  ExprRef x = sym("rx", 16);
  for (unsigned i = 0; i < 20; ++i) {
    SolverResponse r = check({ctx.ugt(x, c(i, 16))}, ctx.ult(x, c(i + 2, 16)));
    ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
    EXPECT_EQ(r.model.scalar(x->symbol()), i + 1);
  }
  // A fresh context reusing the name with another width gets its own declaration.
  ExprContext other;
  ExprRef x8 = other.symbol(other.declareSymbol("rx", 8, SymbolClass::Input));
  SolverResponse r = solver->check(Query({}, other.eq(x8, other.constant(200, 8))), true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(x8->symbol()), 200u);

  std::vector<SolverLayerStats> stats;
  solver->collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].queries, 21u);
  EXPECT_EQ(stats[0].answered, 21u);
  EXPECT_EQ(stats[0].unknown, 0u);
}

// A session answers for its query with everything added so far, binds the symbols of the
// added constraints in its models, and leaves nothing behind: the backend's next query does
// not see the session's constraints.
TEST_P(BackendTest, SessionAnswersTheGrowingQuery) {
  ExprRef x = sym("sx", 32), y = sym("sy", 32);
  Query base({ctx.ugt(x, c(5, 32))}, ctx.ult(x, c(100, 32)));
  {
    std::unique_ptr<SolverSession> session = solver->openSession(base);
    SolverResponse r = session->check(true);
    expectModelSatisfies(r, {ctx.ugt(x, c(5, 32)), ctx.ult(x, c(100, 32))});

    session->add(ctx.eq(y, ctx.add(x, c(1, 32)))); // a symbol the base query does not have
    r = session->check(true);
    expectModelSatisfies(r, {ctx.eq(y, ctx.add(x, c(1, 32))), ctx.ugt(x, c(5, 32))});
    EXPECT_TRUE(r.model.has(y->symbol()));

    session->add(ctx.eq(x, c(7, 32)));
    r = session->check(true);
    ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
    EXPECT_EQ(r.model.scalar(x->symbol()), 7u);
    EXPECT_EQ(r.model.scalar(y->symbol()), 8u);
    EXPECT_EQ(session->check(false).result, SatResult::Sat);

    session->add(ctx.eq(y, c(9, 32)));
    EXPECT_EQ(session->check(true).result, SatResult::Unsat);
  }
  SolverResponse r = check({ctx.ugt(x, c(5, 32))}, ctx.eq(y, c(9, 32)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(y->symbol()), 9u);

  std::vector<SolverLayerStats> stats;
  solver->collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].queries, 6u); // each check of the session counts as a query
  EXPECT_EQ(stats[0].answered, 6u);
}

// A backend failure inside a session is an Unknown answer like any other, and the backend
// answers the next query (and the next session) as usual.
TEST_P(BackendTest, SessionFailureBecomesUnknown) {
  ExprRef x = sym("fx", 8);
  {
    std::unique_ptr<SolverSession> session = solver->openSession(Query({}, ctx.ugt(x, c(3, 8))));
    ASSERT_EQ(session->check(false).result, SatResult::Sat);
    session->add(ctx.add(x, c(1, 8))); // ill-sorted: 8 bits where a boolean belongs
    SolverResponse r = session->check(true);
    EXPECT_EQ(r.result, SatResult::Unknown);
    EXPECT_EQ(r.reason.rfind(GetParam() + ": ", 0), 0u) << r.reason;
  }
  SolverResponse r = check({}, ctx.eq(x, c(1, 8)));
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(x->symbol()), 1u);

  std::unique_ptr<SolverSession> session = solver->openSession(Query({}, ctx.ugt(x, c(3, 8))));
  session->add(ctx.ult(x, c(5, 8)));
  r = session->check(true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(x->symbol()), 4u);
}

// The session every other solver has re-asks the whole query, with the added constraints.
TEST(SolverSession, DefaultSessionReasksTheWholeQuery) {
  struct Recording final : Solver {
    std::unique_ptr<Solver> z3 = createZ3Solver(10);
    std::vector<size_t> sizes;
    SolverResponse check(const Query &q, bool wantModel) override {
      sizes.push_back(q.constraints.size());
      return z3->check(q, wantModel);
    }
    std::string name() const override { return "recording"; }
    void collectStats(std::vector<SolverLayerStats> &) const override {}
    void setTimeout(double) override {}
  } recording;
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("dx", 8, SymbolClass::Input));
  std::unique_ptr<SolverSession> session =
      recording.openSession(Query({ctx.ugt(x, ctx.constant(1, 8))}, ctx.trueExpr()));
  EXPECT_EQ(session->check(false).result, SatResult::Sat);
  session->add(ctx.ult(x, ctx.constant(3, 8)));
  SolverResponse r = session->check(true);
  ASSERT_EQ(r.result, SatResult::Sat) << r.reason;
  EXPECT_EQ(r.model.scalar(x->symbol()), 2u);
  session->add(ctx.eq(x, ctx.constant(1, 8)));
  EXPECT_EQ(session->check(false).result, SatResult::Unsat);
  EXPECT_EQ(recording.sizes, (std::vector<size_t>{1, 2, 3}));
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendTest, ::testing::Values("z3", "cvc5"),
                         [](const auto &info) { return info.param; });

// The models of a stream of loosely constrained queries, asked of a fresh solver in a fresh
// context where `padding` unrelated nodes are made around each query's nodes, so that the
// query's nodes lie elsewhere in memory while the solver sees the very same calls.
std::vector<u128> z3ModelsOfStream(unsigned padding) {
  ExprContext ctx;
  std::unique_ptr<Solver> solver = createZ3Solver(0);
  std::vector<ExprRef> xs, pads;
  auto pad = [&](unsigned salt) {
    for (unsigned i = 0; i < padding; ++i)
      pads.push_back(ctx.bvxor(ctx.symbol(ctx.declareSymbol("pad", 32, SymbolClass::Input)),
                               ctx.constant(u128(salt) * 1000 + i, 32)));
  };
  for (unsigned i = 0; i < 6; ++i) {
    pad(i);
    xs.push_back(ctx.symbol(ctx.declareSymbol("v" + std::to_string(i), 32, SymbolClass::Input)));
  }
  std::vector<u128> models;
  for (unsigned q = 0; q < 12; ++q) {
    std::vector<ExprRef> constraints;
    for (unsigned i = 0; i < 6; ++i) {
      pad(q * 8 + i);
      const ExprRef &a = xs[i], &b = xs[(i + q) % 6];
      ExprRef mixed = ctx.add(a, ctx.bvxor(b, ctx.constant(q * 77 + i, 32)));
      constraints.push_back(ctx.ne(mixed, ctx.constant(q + i, 32)));
      constraints.push_back(ctx.ult(ctx.bvand(a, ctx.constant(0xff, 32)), ctx.constant(200 - q, 32)));
    }
    SolverResponse r = solver->check(Query(constraints, ctx.trueExpr()), true);
    EXPECT_EQ(r.result, SatResult::Sat) << r.reason;
    for (const ExprRef &x : xs)
      models.push_back(r.model.scalar(x->symbol()));
  }
  return models;
}

// Z3 reuses the ids of released terms, and its models follow them: a backend that released
// its terms in an order set by node addresses gave other models for the same queries once
// anything else changed what the process allocated.
TEST(Z3Backend, ModelsDoNotDependOnWhereNodesLie) {
  std::vector<u128> plain = z3ModelsOfStream(0);
  for (unsigned padding : {1u, 7u})
    EXPECT_EQ(z3ModelsOfStream(padding), plain) << "padding " << padding;
}

// Which if-then-else nodes count toward Z3's choice of its default tactic (Z3Solver::heavy):
// a chain selecting by a term's value (an array read written out, a store chain at symbolic
// indices) is taken apart by the core, a tree over path conditions is bit-blasted whole.
TEST(QueryShapeTest, ChainsSelectingByValueAreToldFromMergedTrees) {
  ExprContext ctx;
  auto sym = [&](const char *name, unsigned w) { return ctx.symbol(ctx.declareSymbol(name, w, SymbolClass::Input)); };
  ExprRef i = sym("i", 32), j = sym("j", 32), x = sym("x", 8), y = sym("y", 8);
  auto k = [&](u128 v, unsigned w) { return ctx.constant(v, w); };
  // A lookup of four positions: three links, the last no link (its next is a leaf).
  ExprRef lookup = k(0, 8);
  for (unsigned p = 4; p-- > 1;)
    lookup = ctx.ite(ctx.eq(i, k(p, 32)), k(p * 10, 8), lookup);
  lookup = ctx.ite(ctx.eq(k(0, 32), i), x, lookup); // the constant on either side
  backend::QueryShape shape = backend::queryShape(Query({}, ctx.eq(lookup, y)));
  EXPECT_EQ(shape.ites, 4u);
  EXPECT_EQ(shape.selectorItes, 3u);
  // Writes at two symbolic indices read back: the chain's links test different terms.
  ExprRef written = ctx.ite(ctx.eq(k(5, 32), i), k(0, 8), ctx.ite(ctx.eq(k(5, 32), j), k(0, 8), x));
  shape = backend::queryShape(Query({}, ctx.eq(written, y)));
  EXPECT_EQ(shape.ites, 2u);
  EXPECT_EQ(shape.selectorItes, 1u);
  // Merged paths: conditions that are no test of a term against a constant, or a chain broken
  // by one such condition.
  ExprRef merged = ctx.ite(ctx.ult(x, y), ctx.ite(ctx.ult(y, k(3, 8)), x, y), ctx.ite(ctx.eq(x, y), y, x));
  shape = backend::queryShape(Query({}, ctx.eq(merged, k(1, 8))));
  EXPECT_EQ(shape.ites, 3u);
  EXPECT_EQ(shape.selectorItes, 0u);
  ExprRef broken = ctx.ite(ctx.eq(i, k(1, 32)), x, ctx.ite(ctx.ult(i, j), y, ctx.ite(ctx.eq(i, k(2, 32)), y, x)));
  shape = backend::queryShape(Query({}, ctx.eq(broken, k(1, 8))));
  EXPECT_EQ(shape.ites, 3u);
  EXPECT_EQ(shape.selectorItes, 0u);
}

} // namespace
