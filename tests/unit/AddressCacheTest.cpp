// The address-aware cache on the examples of its chapter (Fig. 4.1, Table 4.1): the branch
// queries of the two sides of a fork are equal up to a renaming of symbolic bases and are
// answered once; a renaming between objects of other sizes, or one that is not one-to-one, is
// no match; layout-dependent questions are never answered from it; validation catches a
// cached answer that does not hold for the new layout.
#include "CountingSolver.h"

#include "cairn/expr/AddressRenaming.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

using namespace cairn;
using cairn::unit::CountingSolver;

namespace {

// One state's objects of Fig. 4.1: a table of two pointers and the two 2-byte buffers they
// point to, with symbolic bases and the concrete addresses they stand for.
struct Layout {
  ExprRef table, buf0, buf1;         // symbolic bases
  uint64_t tableAt, buf0At, buf1At; // their addresses
};

struct AddressCache : ::testing::Test {
  ExprContext ctx;
  ExprRef i = ctx.symbol(ctx.declareSymbol("i", 64, SymbolClass::Input));
  ExprRef j = ctx.symbol(ctx.declareSymbol("j", 64, SymbolClass::Input));
  ExprRef z = ctx.symbol(ctx.declareSymbol("z", 32, SymbolClass::Input));
  CountingSolver *core = nullptr;
  std::unique_ptr<Solver> solver;

  void SetUp() override { build({}); }
  void build(AddressCacheOptions options) {
    auto counting = std::make_unique<CountingSolver>();
    core = counting.get();
    solver = createIndependentSolver(createAddressCachingSolver(std::move(counting), options));
  }

  ExprRef base(const std::string &name, uint64_t size) {
    return ctx.symbol(ctx.declareSymbol(name, 64, SymbolClass::Address, size));
  }
  ExprRef c64(uint64_t v) { return ctx.constant(v, 64); }

  // The table's contents: each pointer stored byte by byte, as the engine stores a pointer.
  ExprRef tableContents(const ExprRef &first, const ExprRef &second) {
    std::vector<u128> zeros(16, 0);
    ExprRef a = ctx.constArray(zeros, 8, 64);
    for (unsigned b = 0; b < 8; ++b)
      a = ctx.store(a, c64(b), ctx.extract(first, 8 * b, 8));
    for (unsigned b = 0; b < 8; ++b)
      a = ctx.store(a, c64(8 + b), ctx.extract(second, 8 * b, 8));
    return a;
  }
  // array[i][j] with array[0][1] == 7 (calloc'ed buffers).
  ExprRef pointer(const ExprRef &first, const ExprRef &second) {
    return ctx.add(ctx.readLE(tableContents(first, second), ctx.mul(i, c64(8)), 8), j);
  }
  ExprRef buffer(bool magic) {
    std::vector<u128> bytes = {0, magic ? 7u : 0u};
    return ctx.constArray(bytes, 8, 64);
  }

  // The path constraints at line 17 of a state that resolved array[i][j] to `target` (a base
  // or its address), and the branch condition there; `bases` gives what stands for the two
  // buffers (symbolic bases or constants).
  struct Branch {
    std::vector<ExprRef> pc;
    ExprRef cond;
  };
  Branch line17(bool zPositive, const ExprRef &b0, const ExprRef &b1, bool toFirst,
                uint64_t size = 2) {
    ExprRef p = pointer(b0, b1);
    ExprRef target = toFirst ? b0 : b1;
    ExprRef offset = ctx.sub(p, target);
    Branch b;
    ExprRef zc = ctx.slt(ctx.constant(0, 32), z);
    b.pc = {zPositive ? zc : ctx.lnot(zc), ctx.ult(i, c64(2)), ctx.ult(j, c64(2)),
            ctx.ult(offset, c64(size))};
    b.cond = ctx.eq(ctx.select(buffer(toFirst), offset), ctx.constant(7, 8));
    return b;
  }

  // Asks the branch of one state, symbolic form and concrete form, as the engine does.
  Answer<Validity> ask(bool zPositive, const Layout &l, bool toFirst, uint64_t size = 2,
                       bool layoutDependent = false) {
    Branch sym = line17(zPositive, l.buf0, l.buf1, toFirst, size);
    Branch conc = line17(zPositive, c64(l.buf0At), c64(l.buf1At), toFirst, size);
    return solver->evaluate(PathConstraints(conc.pc, sym.pc, layoutDependent), conc.cond, sym.cond);
  }

  uint64_t counter(const std::string &name) { return cairn::unit::layerCounter(*solver, name); }
};

TEST_F(AddressCache, Figure41BothSidesOfTheForkHit) {
  Layout s1{base("b1", 16), base("b2", 2), base("b3", 2), 100, 200, 300};
  Layout s2{base("b4", 16), base("b5", 2), base("b6", 2), 400, 500, 600};
  // q5 (s3: array[i][j] in mo2) and q6 (s4: in mo3) on the z > 0 side.
  Answer<Validity> q5 = ask(true, s1, true);
  Answer<Validity> q6 = ask(true, s1, false);
  ASSERT_TRUE(q5.known() && q6.known());
  EXPECT_EQ(*q5, Validity::Either); // i == 0 && j == 1 hits the 7
  EXPECT_EQ(*q6, Validity::False);  // mo3 holds no 7
  const size_t solved = core->calls;
  EXPECT_GT(solved, 0u);
  // q7 and q8 on the other side: other bases, other addresses, the same answers, no solver.
  Answer<Validity> q7 = ask(false, s2, true);
  Answer<Validity> q8 = ask(false, s2, false);
  ASSERT_TRUE(q7.known() && q8.known());
  EXPECT_EQ(*q7, *q5);
  EXPECT_EQ(*q8, *q6);
  EXPECT_EQ(core->calls, solved);
  EXPECT_EQ(counter("address_dependent"), 8u); // evaluate: can it be false, can it be true
  EXPECT_EQ(counter("entries"), 4u);
}

TEST_F(AddressCache, ObjectsOfOtherSizesMiss) {
  Layout s1{base("b1", 16), base("b2", 2), base("b3", 2), 100, 200, 300};
  Layout s2{base("b4", 16), base("b5", 3), base("b6", 2), 400, 500, 600};
  ask(true, s1, true);
  const size_t solved = core->calls;
  ask(false, s2, true); // the same formula, but mo5 has 3 bytes
  EXPECT_GT(core->calls, solved);
  ask(false, s2, true, 3); // the guard of a 3-byte object: another formula
  EXPECT_GT(core->calls, solved + 1);
}

TEST_F(AddressCache, RenamingsThatAreNotOneToOneMiss) {
  Layout s1{base("b1", 16), base("b2", 2), base("b3", 2), 100, 200, 300};
  ask(true, s1, true);
  const size_t solved = core->calls;
  // Both table entries point to one buffer: b2 and b3 would both become b5.
  ExprRef b5 = base("b5", 2);
  Layout same{base("b4", 16), b5, b5, 400, 500, 500};
  ask(false, same, true);
  EXPECT_GT(core->calls, solved);

  AddressRenaming r; // (the expressions must outlive it: it remembers matched nodes)
  ExprRef b2 = s1.buf0, b3 = s1.buf1;
  ExprRef b2i = ctx.add(b2, i), b5i = ctx.add(b5, i), b3j = ctx.add(b3, j), b5j = ctx.add(b5, j),
          b2j = ctx.add(b2, j);
  EXPECT_TRUE(r.match(b2i.get(), b5i.get()));
  EXPECT_FALSE(r.match(b3j.get(), b5j.get())); // b5 is b2's already
  EXPECT_FALSE(r.match(b2j.get(), b3j.get()));  // b2 is b5's already
  EXPECT_EQ(r.image(b2->symbol()), b5->symbol());
  EXPECT_EQ(r.size(), 1u); // the failed attempts left nothing behind
}

TEST(AddressRenamingTest, OperandsOrderedByNameAndConstantArraysByContents) {
  ExprContext ctx;
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 64, SymbolClass::Input));
  std::vector<ExprRef> bases;
  for (int n = 0; n < 16; ++n)
    bases.push_back(ctx.symbol(ctx.declareSymbol("b" + std::to_string(n), 64, SymbolClass::Address, 8)));
  // Whatever order the structural hashes put a base and x in, renaming finds the pairing.
  ExprRef from = ctx.mul(bases[0], ctx.add(bases[0], x));
  for (int n = 1; n < 16; ++n) {
    AddressRenaming r;
    ExprRef to = ctx.mul(bases[n], ctx.add(bases[n], x));
    EXPECT_TRUE(r.match(from.get(), to.get())) << n;
    EXPECT_EQ(r.image(bases[0]->symbol()), bases[n]->symbol());
  }
  // x + b0 == b1 + 0 against x + b2 == b2: b0 and b1 cannot both become b2.
  AddressRenaming r;
  ExprRef two = ctx.eq(ctx.add(x, bases[0]), bases[1]), one = ctx.eq(ctx.add(x, bases[2]), bases[2]);
  EXPECT_FALSE(r.match(two.get(), one.get()));
  // Constant arrays: equal contents match, other contents do not.
  std::vector<u128> zeros(4, 0), single = {0, 1, 0, 0};
  ExprRef k0 = ctx.constArray(zeros), k0again = ctx.constArray(zeros), k1 = ctx.constArray(single);
  ExprRef at3 = ctx.select(k0, ctx.extract(bases[3], 0, 32));
  ExprRef at4 = ctx.select(k0again, ctx.extract(bases[4], 0, 32));
  ExprRef at5 = ctx.select(k1, ctx.extract(bases[5], 0, 32));
  AddressRenaming s;
  EXPECT_TRUE(s.match(at3.get(), at4.get()));
  EXPECT_FALSE(s.match(at3.get(), at5.get()));
  // Inputs are never renamed.
  ExprRef y = ctx.symbol(ctx.declareSymbol("y", 64, SymbolClass::Input));
  ExprRef withX = ctx.add(bases[0], x), withY = ctx.add(bases[1], y);
  EXPECT_FALSE(AddressRenaming().match(withX.get(), withY.get()));
}

TEST_F(AddressCache, LayoutDependentQuestionsAreNeverAnsweredByRenaming) {
  Layout s1{base("b1", 16), base("b2", 2), base("b3", 2), 100, 200, 300};
  Layout s2{base("b4", 16), base("b5", 2), base("b6", 2), 400, 500, 600};
  ask(true, s1, true, 2, true);
  const size_t solved = core->calls;
  ask(false, s2, true, 2, true);
  EXPECT_EQ(core->calls, 2 * solved);
  EXPECT_EQ(counter("layout_dependent"), 4u);
  EXPECT_EQ(counter("entries"), 0u);
}

TEST_F(AddressCache, ModelsAreReusedAndSatisfyTheNewQuery) {
  Layout s1{base("b1", 16), base("b2", 2), base("b3", 2), 100, 200, 300};
  Layout s2{base("b4", 16), base("b5", 2), base("b6", 2), 400, 500, 600};
  auto value = [&](bool zPositive, const Layout &l) {
    Branch sym = line17(zPositive, l.buf0, l.buf1, true);
    Branch conc = line17(zPositive, c64(l.buf0At), c64(l.buf1At), true);
    sym.pc.push_back(sym.cond);
    conc.pc.push_back(conc.cond);
    // The pointer's value: where the 7 is, in this layout.
    return solver->getValue(PathConstraints(conc.pc, sym.pc, false), pointer(c64(l.buf0At), c64(l.buf1At)));
  };
  Answer<u128> first = value(true, s1);
  ASSERT_TRUE(first.known());
  EXPECT_EQ(*first, 201u);
  const size_t solved = core->calls;
  Answer<u128> second = value(false, s2);
  ASSERT_TRUE(second.known());
  EXPECT_EQ(*second, 501u);
  EXPECT_EQ(core->calls, solved);
  EXPECT_EQ(counter("model_hits"), 1u);
}

TEST_F(AddressCache, ValidationCatchesAnAnswerThatDependsOnTheLayout) {
  build({size_t(1) << 10, true});
  ExprRef b2 = base("b2", 8), b3 = base("b3", 8), b5 = base("b5", 8), b6 = base("b6", 8);
  // An ill-behaved program's question: is p + i below q? (Fig. 4.3: it depends on where p
  // and q lie.)
  auto ask2 = [&](const ExprRef &p, const ExprRef &q, uint64_t pAt, uint64_t qAt) {
    std::vector<ExprRef> sym = {ctx.ult(i, c64(4))}, conc = sym;
    return solver->mayBeTrue(PathConstraints(conc, sym, false), ctx.ult(ctx.add(c64(pAt), i), c64(qAt)),
                             ctx.ult(ctx.add(p, i), q));
  };
  Answer<bool> a = ask2(b2, b3, 100, 200);
  ASSERT_TRUE(a.known());
  EXPECT_TRUE(*a);
  Answer<bool> b = ask2(b5, b6, 300, 200); // the cache says yes; the solver, no
  ASSERT_TRUE(b.known());
  EXPECT_FALSE(*b); // validation returns the solver's answer
  EXPECT_EQ(counter("validated"), 1u);
  EXPECT_EQ(counter("mismatches"), 1u);
  EXPECT_EQ(counter("saved_solver_calls"), 1u); // no ordinary cache below: the core answered
}

} // namespace
