// Type- and interval-aware array solving (solver-pool/lib/arrays): the ISSTA '21 paper's
// running example and the digest's acceptance tests T1-T9 and T11 (T10, the engine's type
// inference, is in the engine's tests).
#include "CountingSolver.h"
#include "arrays/AbstractionCache.h"
#include "arrays/ArrayAxioms.h"
#include "arrays/ArrayPrecheck.h"
#include "arrays/Linearize.h"
#include "arrays/ReadAbstraction.h"

#include "cairn/solver/Backends.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/solver/SolverChain.h"

#include "cairn/v1/expr.pb.h"

#include <gtest/gtest.h>

#include <random>

using namespace cairn;
using namespace cairn::arrays;
using cairn::unit::CountingSolver;
using cairn::unit::layerCounter;
using cairn::unit::modelSatisfies;

namespace {

struct Arrays : ::testing::Test {
  ExprContext ctx;
  ExprRef i = ctx.symbol(ctx.declareArray("i", 4));
  ExprRef j = ctx.symbol(ctx.declareArray("j", 4));
  ExprRef iw = ctx.readLE(i, ctx.constant(0, 32), 4);
  ExprRef jw = ctx.readLE(j, ctx.constant(0, 32), 4);

  ExprRef c32(uint64_t v) { return ctx.constant(v, 32); }
  // `int a[4]` as the engine's memory holds it: 16 bytes, 64-bit indices.
  ExprRef intArray(std::vector<uint32_t> words) {
    std::vector<u128> bytes;
    for (uint32_t w : words)
      for (unsigned b = 0; b < 4; ++b)
        bytes.push_back((w >> (8 * b)) & 0xff);
    return ctx.constArray(bytes, 8, 64);
  }
  // a[x] for an int index x: the 4 bytes at 4 * x.
  ExprRef element(const ExprRef &a, const ExprRef &x) {
    ExprRef offset = ctx.mul(ctx.constant(4, 64), ctx.zext(x, 64));
    return ctx.readLE(a, offset, 4);
  }
  std::shared_ptr<ArrayTypes> wordTyped(const ExprRef &a) {
    auto t = std::make_shared<ArrayTypes>();
    t->elementBytes.push_back({a, 4});
    return t;
  }

  // The running example's query (5) with precondition (4), a[3] = `last`.
  Query runningExample(uint32_t last, ExprRef &a, bool signedBounds = false) {
    a = intArray({0, 0, 0, last});
    std::vector<ExprRef> pc;
    if (signedBounds) {
      pc = {ctx.sle(c32(0), iw), ctx.sle(iw, c32(3)), ctx.sle(c32(0), jw), ctx.sle(jw, c32(3))};
    } else {
      pc = {ctx.ule(iw, c32(3)), ctx.ule(jw, c32(3))};
    }
    pc.push_back(ctx.ult(c32(4), ctx.add(iw, jw)));
    Query q(pc, ctx.ult(c32(10), ctx.add(element(a, iw), element(a, jw))), {i, j});
    q.arrayTypes = wordTyped(a);
    return q;
  }

  static PrecheckResult precheckOf(const Query &q) {
    IntegerProgramSolver ilp;
    return precheck(conjuncts(q), collectReads(conjuncts(q)), q.arrayTypes.get(), ilp);
  }

  static std::vector<const Expr *> conjuncts(const Query &q) {
    std::vector<const Expr *> out;
    for (const ExprRef &c : q.constraints)
      out.push_back(c.get());
    out.push_back(q.expr.get());
    return out;
  }

  // UNSAT from the layer, the core never asked: the pre-check decided.
  void expectUnsatByPrecheck(const Query &q) {
    CountingSolver *core = nullptr;
    auto solver = typedChain(core);
    EXPECT_EQ(solver->check(q, false).result, SatResult::Unsat);
    EXPECT_EQ(core->calls, 0u);
    EXPECT_EQ(layerCounter(*solver, "precheck_unsat"), 1u);
  }

  std::unique_ptr<Solver> typedChain(CountingSolver *&core, bool precheck = true, bool typed = true,
                                     unsigned axiomsBeforeWholeRead = ArraySolverOptions{}.axiomsBeforeWholeRead,
                                     uint64_t maxAxiomsPerRead = ArraySolverOptions{}.maxAxiomsPerRead) {
    auto c = std::make_unique<CountingSolver>();
    core = c.get();
    ArraySolverOptions o;
    o.precheck = precheck;
    o.typed = typed;
    o.axiomsBeforeWholeRead = axiomsBeforeWholeRead;
    o.maxAxiomsPerRead = maxAxiomsPerRead;
    return createTypedArraySolver(std::move(c), o);
  }
};

// T1: the pre-check proves the running example UNSAT, by each way of bounding indices; the
// core is never asked.
TEST_F(Arrays, T1PrecheckProvesRunningExampleUnsat) {
  ExprRef a;
  Query q = runningExample(5, a);
  const QueryReads reads = collectReads(conjuncts(q));
  ASSERT_EQ(reads.reads.size(), 8u); // four bytes at 4i, four at 4j
  for (ArrayBounds method : {ArrayBounds::Propagation, ArrayBounds::Relaxed, ArrayBounds::Integer, ArrayBounds::Glpk}) {
    IntegerProgramSolver ilp(method);
    PrecheckResult r = precheck(conjuncts(q), reads, q.arrayTypes.get(), ilp);
    EXPECT_EQ(r.outcome, PrecheckResult::Outcome::Unsat) << int(method);
    // I[i_0] = [8, 12]: i in [2, 3].
    const ExprRef lowest = ctx.mul(ctx.constant(4, 64), ctx.zext(iw, 64));
    ASSERT_TRUE(r.indexIntervals.contains(lowest.get()));
    EXPECT_EQ(r.indexIntervals.at(lowest.get()).lo, 8) << int(method);
    EXPECT_EQ(r.indexIntervals.at(lowest.get()).hi, 12) << int(method);
  }
  expectUnsatByPrecheck(q);
}

// T1 with signed bounds (`0 <= i <= 3` on a C int): the same intervals, the same answer.
TEST_F(Arrays, T1SignedBoundsAreKept) {
  ExprRef a;
  expectUnsatByPrecheck(runningExample(5, a, true));
}

// Without the element width, the words at unaligned positions (bytes 9-12: 0x05000000) keep
// the over-approximation feasible: the pre-check cannot decide, the core does.
TEST_F(Arrays, T1WithoutTypesNeedsTheCore) {
  ExprRef a;
  Query q = runningExample(5, a);
  q.arrayTypes = nullptr;
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  EXPECT_EQ(solver->check(q, false).result, SatResult::Unsat);
  EXPECT_GT(core->calls, 0u);
  EXPECT_EQ(layerCounter(*solver, "precheck_unsat"), 0u);
}

// T2: with a[3] = 9 the query is SAT (i = j = 3): no false UNSAT, and the model is the query's.
TEST_F(Arrays, T2VariantIsSatWithTheOnlyModel) {
  ExprRef a;
  Query q = runningExample(9, a);
  EXPECT_EQ(precheckOf(q).outcome, PrecheckResult::Outcome::Unknown);
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  SolverResponse s = solver->check(q, true);
  ASSERT_EQ(s.result, SatResult::Sat);
  EXPECT_EQ(evaluate(iw.get(), s.model), 3u);
  EXPECT_EQ(evaluate(jw.get(), s.model), 3u);
  for (const auto &[sym, v] : s.model.scalars())
    EXPECT_NE(sym->name.rfind("array_read", 0), 0u) << "the abstraction's variables stay inside the layer";
}

// T3: the axiom counts of the running example: 156 unpruned, 20 with types and intervals, 36
// with types alone (intervals the array's range), 68 with intervals alone.
TEST_F(Arrays, T3AxiomCounts) {
  ExprRef a;
  Query q = runningExample(9, a);
  IntegerProgramSolver ilp;
  const std::vector<const Expr *> cs = conjuncts(q);
  PrecheckResult withIntervals = precheck(cs, collectReads(cs), q.arrayTypes.get(), ilp);
  auto pool = [&](const PrecheckResult &intervals, const ArrayTypes *types) {
    FreshReads fresh;
    ReadAbstraction abstraction(fresh, intervals, types);
    for (const Expr *c : cs)
      abstraction.rewrite(c);
    EXPECT_EQ(abstraction.reads().size(), 8u);
    AxiomPool p = buildAxiomPool(abstraction.reads());
    EXPECT_EQ(p.unpruned, 156u);
    return p;
  };
  auto count = [](const AxiomPool &p, Axiom::Kind kind) {
    return std::count_if(p.axioms.begin(), p.axioms.end(), [&](const Axiom &x) { return x.kind == kind; });
  };
  AxiomPool both = pool(withIntervals, q.arrayTypes.get());
  EXPECT_EQ(both.axioms.size(), 20u);
  EXPECT_EQ(count(both, Axiom::Kind::Congruence), 4);

  AxiomPool intervalsOnly = pool(withIntervals, nullptr);
  EXPECT_EQ(intervalsOnly.axioms.size(), 68u);

  // Types alone: every index may be anywhere in the array (and beyond it: one axiom each for
  // the default past the end, which the paper's count leaves out).
  AxiomPool typesOnly = pool(PrecheckResult{}, q.arrayTypes.get());
  EXPECT_EQ(count(typesOnly, Axiom::Kind::Element) + count(typesOnly, Axiom::Kind::Congruence), 36);
  EXPECT_EQ(count(typesOnly, Axiom::Kind::Beyond), 8);

  // And the layer solves it with the pruned pool: SAT, some axioms added, no fallback.
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  ASSERT_EQ(solver->check(q, true).result, SatResult::Sat);
  EXPECT_EQ(layerCounter(*solver, "axiom_pool"), 20u);
  EXPECT_EQ(layerCounter(*solver, "axioms_unpruned"), 156u);
  EXPECT_EQ(layerCounter(*solver, "fallbacks"), 0u);
  EXPECT_LE(layerCounter(*solver, "axioms_added"), 20u);
}

// T4: the word-level example 1: a = {0, 0, 0, 11}, a[i] > 10, i <= 3. The read is in [0, 11]:
// the pre-check cannot decide; SAT with i = 3; 16 pool axioms where 70 are unpruned.
TEST_F(Arrays, T4WordLevelExample) {
  ExprRef a = intArray({0, 0, 0, 11});
  Query q({ctx.ule(iw, c32(3))}, ctx.ult(c32(10), element(a, iw)), {i});
  q.arrayTypes = wordTyped(a);
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  SolverResponse s = solver->check(q, true);
  ASSERT_EQ(s.result, SatResult::Sat);
  EXPECT_EQ(evaluate(iw.get(), s.model), 3u);
  EXPECT_EQ(layerCounter(*solver, "precheck_unsat"), 0u);
  EXPECT_EQ(layerCounter(*solver, "axiom_pool"), 16u);
  EXPECT_EQ(layerCounter(*solver, "axioms_unpruned"), 70u);
}

// T5: infeasible index constraints: UNSAT from the index program alone.
TEST_F(Arrays, T5InfeasibleIndexConstraints) {
  ExprRef a = intArray({1, 2, 3, 4});
  expectUnsatByPrecheck(Query({ctx.ule(c32(5), iw), ctx.ule(iw, c32(3))}, ctx.eq(element(a, iw), c32(2)), {i}));
}

// T6: `!=` is dropped, never made into an UNSAT: i != 2, 2 <= i <= 3, a[i] > 4 is SAT (i = 3).
TEST_F(Arrays, T6DisequalityIsDroppedSoundly) {
  ExprRef a = intArray({7, 7, 0, 5});
  Query q({ctx.ne(iw, c32(2)), ctx.ule(c32(2), iw), ctx.ule(iw, c32(3))}, ctx.ult(c32(4), element(a, iw)), {i});
  q.arrayTypes = wordTyped(a);
  EXPECT_EQ(precheckOf(q).outcome, PrecheckResult::Outcome::Unknown);
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  SolverResponse s = solver->check(q, true);
  ASSERT_EQ(s.result, SatResult::Sat);
  EXPECT_EQ(evaluate(iw.get(), s.model), 3u);
}

// T7: a store at a symbolic index: the pre-check is skipped (full intervals), and the layer
// still answers as the core does, both ways.
TEST_F(Arrays, T7SymbolicWriteSkipsThePrecheck) {
  ExprRef a = intArray({1, 2, 3, 4});
  ExprRef x = ctx.select(i, ctx.constant(0, 32)), y = ctx.select(j, ctx.constant(0, 32));
  ExprRef written = ctx.store(a, ctx.zext(ctx.bvand(x, ctx.constant(15, 8)), 64), ctx.constant(99, 8));
  ExprRef readBack = ctx.select(written, ctx.zext(ctx.bvand(y, ctx.constant(15, 8)), 64));
  IntegerProgramSolver ilp;
  for (unsigned want : {99u, 3u, 200u}) {
    Query q({ctx.ult(y, ctx.constant(16, 8))}, ctx.eq(readBack, ctx.constant(want, 8)), {i, j});
    const QueryReads reads = collectReads(conjuncts(q));
    EXPECT_TRUE(reads.symbolicWrite);
    EXPECT_EQ(precheck(conjuncts(q), reads, nullptr, ilp).outcome, PrecheckResult::Outcome::Skipped);
    CountingSolver *core = nullptr;
    auto solver = typedChain(core);
    SolverResponse s = solver->check(q, true);
    EXPECT_EQ(s.result, want == 200 ? SatResult::Unsat : SatResult::Sat) << want;
    if (s.result == SatResult::Sat) {
      EXPECT_EQ(evaluate(readBack.get(), s.model), want);
    }
  }
}

// T8: ((zext a8) * 2) + 1 is in [1, 511] with no overflow variable.
TEST_F(Arrays, T8NoOverflowVariableWhereNoneCanWrap) {
  ExprRef a8 = ctx.select(i, ctx.constant(0, 32));
  ExprRef e = ctx.add(ctx.mul(ctx.zext(a8, 32), c32(2)), c32(1));
  IntegerProgram program;
  Linearizer lin(program);
  std::optional<Linear> l = lin.term(e.get());
  ASSERT_TRUE(l);
  EXPECT_EQ(l->range.lo, 1);
  EXPECT_EQ(l->range.hi, 511);
  EXPECT_EQ(lin.overflowVariables(), 0u);
  EXPECT_EQ(program.numVariables(), 1u); // the input byte alone
  // Where a wrap is possible, the overflow count is a variable.
  ExprRef twice = ctx.mul(iw, c32(2));
  lin.term(twice.get());
  EXPECT_EQ(lin.overflowVariables(), 1u);
}

// T9: the abstractions' bounds, as the integer program sees them.
TEST_F(Arrays, T9AbstractionBounds) {
  ExprRef x = ctx.readLE(i, ctx.constant(0, 32), 4);
  ExprRef b = ctx.select(j, ctx.constant(0, 32));
  IntegerProgramSolver ilp; // integer optimisation: the exact bounds of each abstraction
  auto range = [&](const ExprRef &e) {
    IntegerProgram program;
    Linearizer lin(program);
    std::optional<Linear> l = lin.term(e.get());
    EXPECT_TRUE(l);
    IntegerProgramSolver::Ranges r = ilp.ranges(program, nullptr, {l->expr});
    EXPECT_EQ(r.status, IntegerProgramSolver::Status::Feasible);
    return r.ranges.at(0);
  };
  auto expectRange = [&](const ExprRef &e, Int lo, Int hi) {
    Interval r = range(e);
    EXPECT_EQ(r.lo, lo) << toString(e.get());
    EXPECT_EQ(r.hi, hi) << toString(e.get());
  };
  expectRange(ctx.urem(x, c32(10)), 0, 9);                          // exact: x = 10q + r
  expectRange(ctx.bvand(x, c32(0xff)), 0, 255);                     // a low mask: exact
  expectRange(ctx.zext(b, 32), 0, 255);                             // a symbolic byte
  expectRange(ctx.bvand(ctx.zext(b, 32), x), 0, 255);               // at most either
  expectRange(ctx.bvor(ctx.zext(b, 32), c32(0x100)), 0x100, 0x1ff); // at least either, at most the sum
  expectRange(ctx.bvxor(x, c32(7)), 0, 0xffffffff);                 // anything
  expectRange(ctx.udiv(ctx.zext(b, 32), c32(16)), 0, 15);
  expectRange(ctx.extract(x, 8, 8), 0, 255);
  // A mask with a constraint: (x & 0xff) == 300 is infeasible.
  IntegerProgram program;
  Linearizer lin(program);
  lin.assume(ctx.eq(ctx.bvand(x, c32(0xff)), c32(300)).get());
  EXPECT_EQ(ilp.feasible(program), IntegerProgramSolver::Status::Infeasible);
}

// The signed rules: a term of either sign against a non-negative constant is dropped (x <s 3
// holds for every negative x); against a negative one it is an interval of unsigned values.
TEST_F(Arrays, SignedComparisonsAreIntervalsOrDropped) {
  IntegerProgram program;
  Linearizer lin(program);
  EXPECT_FALSE(lin.assume(ctx.slt(iw, c32(3)).get()));
  EXPECT_TRUE(lin.assume(ctx.slt(iw, c32(0xfffffff0)).get())); // x <s -16
  IntegerProgramSolver ilp;
  std::optional<Linear> l = lin.term(iw.get());
  IntegerProgramSolver::Ranges r = ilp.ranges(program, nullptr, {l->expr});
  ASSERT_EQ(r.status, IntegerProgramSolver::Status::Feasible);
  EXPECT_EQ(r.ranges[0].lo, Int(0x80000000u));
  EXPECT_EQ(r.ranges[0].hi, Int(0xffffffefu));
}

// Nested reads of a table, a[a[a[x]]] = 5 with a permutation whose only solution is x = 5:
// refined by axioms alone, each round can send the model to another position of each read;
// a read tied to the table whole after its first violated axiom bounds the rounds by the
// depth of the nesting. Both answer SAT with the one model. A read once tied is tied from the
// start in later queries.
TEST_F(Arrays, NestedReadsAreTiedWholeAfterTheirFirstAxioms) {
  // A permutation of 128 ints: more positions than a read is tied whole for from the start,
  // with the limit of what is abstracted at all raised above them (by default they are left to
  // the core's own lookup).
  constexpr uint64_t kAbstracted = 256;
  std::vector<uint32_t> words(128);
  for (uint32_t k = 0; k < 128; ++k)
    words[k] = (5 * k + 3) % 128;
  uint32_t expected = 0;
  while (words[words[words[expected]]] != 5)
    ++expected;
  ExprRef a = intArray(words);
  Query q({ctx.ule(iw, c32(127))}, ctx.eq(element(a, element(a, element(a, iw))), c32(5)), {i});
  q.arrayTypes = wordTyped(a);
  auto solve = [&](unsigned axiomsBeforeWholeRead, uint64_t &rounds, uint64_t &tied) {
    CountingSolver *core = nullptr;
    auto solver = typedChain(core, true, true, axiomsBeforeWholeRead, kAbstracted);
    SolverResponse s = solver->check(q, true);
    EXPECT_EQ(s.result, SatResult::Sat) << s.reason;
    EXPECT_EQ(evaluate(iw.get(), s.model), expected);
    EXPECT_EQ(layerCounter(*solver, "fallbacks"), 0u);
    rounds = layerCounter(*solver, "refinement_rounds");
    tied = layerCounter(*solver, "reads_tied_whole");
  };
  uint64_t rounds = 0, tied = 0;
  solve(~0u, rounds, tied);
  EXPECT_EQ(tied, 0u);
  const uint64_t axiomRounds = rounds;
  solve(0, rounds, tied);
  EXPECT_GT(tied, 0u);
  EXPECT_LE(rounds, 4u); // three levels of reads, then the model that satisfies the query
  EXPECT_LE(rounds, axiomRounds);
  solve(1, rounds, tied);
  EXPECT_LE(rounds, 7u);

  // The next query about the same reads ties them from the start: one round.
  CountingSolver *core = nullptr;
  auto solver = typedChain(core, true, true, ArraySolverOptions{}.axiomsBeforeWholeRead, kAbstracted);
  ASSERT_EQ(solver->check(q, false).result, SatResult::Sat);
  const uint64_t first = layerCounter(*solver, "refinement_rounds");
  EXPECT_GT(first, 1u);
  EXPECT_EQ(layerCounter(*solver, "reads_tied_from_start"), 0u);
  Query next = q;
  next.constraints.push_back(ctx.ne(iw, c32(4)));
  SolverResponse s = solver->check(next, true);
  ASSERT_EQ(s.result, SatResult::Sat) << s.reason;
  EXPECT_EQ(evaluate(iw.get(), s.model), expected);
  EXPECT_EQ(layerCounter(*solver, "refinement_rounds"), first + 1);
  EXPECT_EQ(layerCounter(*solver, "reads_tied_from_start"), layerCounter(*solver, "reads_tied_whole"));
}

// A read with few positions in its interval (an 8-int table) is tied whole from the first
// round: one round, no read found wrong; with axioms only (the paper's refinement) it is not.
TEST_F(Arrays, ReadsOfFewPositionsAreTiedFromTheStart) {
  ExprRef a = intArray({3, 6, 0, 7, 1, 5, 2, 4});
  Query q({ctx.ule(iw, c32(7))}, ctx.eq(element(a, element(a, element(a, iw))), c32(5)), {i});
  q.arrayTypes = wordTyped(a);
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  SolverResponse s = solver->check(q, true);
  ASSERT_EQ(s.result, SatResult::Sat) << s.reason;
  EXPECT_EQ(evaluate(iw.get(), s.model), 5u);
  EXPECT_EQ(layerCounter(*solver, "refinement_rounds"), 1u);
  EXPECT_EQ(layerCounter(*solver, "reads_tied_whole"), 0u);
  EXPECT_GT(layerCounter(*solver, "reads_tied_from_start"), 0u);
  auto paper = typedChain(core, true, true, ~0u);
  ASSERT_EQ(paper->check(q, true).result, SatResult::Sat);
  EXPECT_EQ(layerCounter(*paper, "reads_tied_from_start"), 0u);
  EXPECT_GT(layerCounter(*paper, "refinement_rounds"), 1u);
}

// A read tied from the start is inlined: the core sees its value (the lookup over the table)
// where the read's variable would stand, nested in the next read's index, and no variable of
// the layer's own; the model it gives satisfies the query. Refined by axioms, the variables stay.
TEST_F(Arrays, ReadsTiedFromTheStartAreInlined) {
  ExprRef a = intArray({3, 6, 0, 7, 1, 5, 2, 4});
  Query q({ctx.ule(iw, c32(7))}, ctx.eq(element(a, element(a, element(a, iw))), c32(5)), {i});
  q.arrayTypes = wordTyped(a);
  auto mentionsFreshRead = [](const Query &asked) {
    bool any = asked.expr && toString(asked.expr.get()).find("array_read") != std::string::npos;
    for (const ExprRef &c : asked.constraints)
      any |= toString(c.get()).find("array_read") != std::string::npos;
    return any;
  };
  for (bool excludeTheOnlyModel : {false, true}) {
    CountingSolver *core = nullptr;
    auto solver = typedChain(core);
    Query asked = q;
    if (excludeTheOnlyModel) // a[a[a[5]]] is 5, and no other index's is
      asked.constraints.push_back(ctx.ne(iw, c32(5)));
    SolverResponse s = solver->check(asked, true);
    ASSERT_EQ(s.result, excludeTheOnlyModel ? SatResult::Unsat : SatResult::Sat) << s.reason;
    if (s.result == SatResult::Sat) {
      EXPECT_TRUE(modelSatisfies(asked, s.model));
    }
    ASSERT_FALSE(core->seen.empty());
    for (const Query &seen : core->seen)
      EXPECT_FALSE(mentionsFreshRead(seen));
  }
  CountingSolver *core = nullptr;
  auto paper = typedChain(core, true, true, ~0u);
  ASSERT_EQ(paper->check(q, true).result, SatResult::Sat);
  EXPECT_TRUE(mentionsFreshRead(core->seen.front()));
}

// A read the core's own encoding looks up over no more positions than the layer would (an
// index `(x & 31) * 4 + k` into 32 ints: 32 positions either way, a hash table's probe) is left
// to the core: the query reaches it as it was asked, with no tie. Bounded to fewer positions
// than the core's lookup has (x & 31 at most 3), the read is tied and inlined as before.
TEST_F(Arrays, ReadsTheCoreLooksUpAsNarrowlyAreLeftToIt) {
  std::vector<uint32_t> words(32);
  for (uint32_t k = 0; k < 32; ++k)
    words[k] = k * k % 37;
  ExprRef a = intArray(words);
  ExprRef slot = ctx.bvand(iw, c32(31));
  ExprRef read = element(a, slot);
  for (bool bounded : {false, true}) {
    Query q({}, ctx.eq(read, c32(9)), {i});
    if (bounded)
      q.constraints.push_back(ctx.ule(slot, c32(3)));
    q.arrayTypes = wordTyped(a);
    CountingSolver *core = nullptr;
    auto solver = typedChain(core);
    SolverResponse s = solver->check(q, true);
    ASSERT_EQ(s.result, SatResult::Sat) << s.reason;
    EXPECT_TRUE(modelSatisfies(q, s.model));
    ASSERT_EQ(core->seen.size(), 1u);
    if (bounded) {
      EXPECT_EQ(evaluate(iw.get(), s.model) & 31, 3u); // 3 * 3 = 9, the one word of 9 below 4
      EXPECT_EQ(layerCounter(*solver, "reads_left_to_core"), 0u);
      EXPECT_EQ(layerCounter(*solver, "reads_tied_from_start"), 4u) << "one per byte";
    } else {
      EXPECT_EQ(layerCounter(*solver, "reads_left_to_core"), 4u) << "one per byte";
      EXPECT_EQ(layerCounter(*solver, "cegar_queries"), 0u);
      EXPECT_EQ(core->seen.front().expr.get(), q.expr.get()) << "the query as asked";
    }
  }
}

// Under a symbolic write (no intervals: the pre-check skipped) a path's queries take the
// constraints they share from the abstraction cache, with the answers Z3 gives the queries
// themselves; an array read at another element width empties the cache first.
TEST_F(Arrays, PathQueriesReuseTheAbstractionOfTheirSharedConstraints) {
  ExprRef a = intArray({1, 2, 3, 4});
  ExprRef x = ctx.select(i, ctx.constant(0, 32));
  ExprRef written = ctx.store(a, ctx.zext(ctx.bvand(x, ctx.constant(15, 8)), 64), ctx.constant(99, 8));
  // Read at a mask that is no run of low bits: the core would look such an index up over all
  // eight bits, so the layer ties the read (ReadsTheCoreLooksUpAsNarrowlyAreLeftToIt).
  auto readAt = [&](unsigned k) {
    return ctx.select(written, ctx.zext(ctx.bvand(ctx.select(j, ctx.constant(k, 32)), ctx.constant(13, 8)), 64));
  };
  std::unique_ptr<Solver> z3 = createZ3Solver(10);
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  std::vector<ExprRef> path;
  uint64_t expectReused = 0;
  auto ask = [&](const ExprRef &e, const std::shared_ptr<ArrayTypes> &types) {
    Query q(path, e, {i, j});
    q.arrayTypes = types;
    SolverResponse s = solver->check(q, true);
    EXPECT_EQ(s.result, z3->check(q, false).result) << toString(e.get());
    if (s.result == SatResult::Sat) {
      EXPECT_TRUE(modelSatisfies(q, s.model)) << toString(e.get());
    }
    path.push_back(e);
  };
  // Each byte read is of a 16-byte array: tied from the start, so every constraint is kept.
  const ExprRef conditions[] = {ctx.ult(readAt(0), ctx.constant(50, 8)), ctx.ne(readAt(1), readAt(2)),
                                ctx.eq(readAt(3), ctx.constant(99, 8)), ctx.ult(readAt(0), readAt(3))};
  for (const ExprRef &e : conditions) {
    expectReused += path.size(); // every constraint, each asked before
    ask(e, nullptr);
    EXPECT_EQ(layerCounter(*solver, "constraints_reused"), expectReused);
  }
  EXPECT_EQ(layerCounter(*solver, "precheck_skipped"), 4u);
  EXPECT_EQ(layerCounter(*solver, "models_exact"), 4u) << "each query is satisfiable, its abstraction exact";
  ask(ctx.eq(readAt(2), ctx.constant(99, 8)), wordTyped(a));
  EXPECT_EQ(layerCounter(*solver, "constraints_reused"), expectReused) << "the cache was emptied";
  expectReused += path.size();
  ask(ctx.eq(readAt(1), ctx.constant(3, 8)), wordTyped(a));
  EXPECT_EQ(layerCounter(*solver, "constraints_reused"), expectReused);
}

// The cache forgets everything when it is full, when FreshReads forgot its reads, and when an
// array its reads read has another element width; widths of other arrays do not matter.
TEST_F(Arrays, AbstractionCacheForgetsWhatNoLongerHolds) {
  ExprRef a = intArray({1, 2, 3, 4}), other = intArray({5, 6, 7, 8, 9});
  FreshReads fresh;
  AbstractRead r;
  r.array = a.get();
  r.index = ctx.zext(ctx.select(j, ctx.constant(0, 32)), 64);
  r.variable = fresh.variableFor(ctx.select(a, r.index).get());
  auto entry = [&](const ExprRef &constraint) {
    return AbstractionCache::Entry{constraint, ctx.eq(r.variable, ctx.constant(1, 8)), {r.variable.get()}, {}};
  };
  const ExprRef first = ctx.ult(iw, c32(3)), second = ctx.ult(jw, c32(3));
  AbstractionCache cache(2);
  cache.startQuery(nullptr, 0);
  cache.add(entry(first), {&r});
  ASSERT_NE(cache.find(first.get()), nullptr);
  EXPECT_EQ(cache.read(r.variable.get()).index, r.index);
  cache.startQuery(wordTyped(other), 0);
  EXPECT_NE(cache.find(first.get()), nullptr) << "another array's width";
  cache.startQuery(wordTyped(a), 0);
  EXPECT_EQ(cache.find(first.get()), nullptr) << "the read's array is now 4 bytes wide";
  cache.add(entry(first), {&r});
  cache.startQuery(wordTyped(a), 1);
  EXPECT_EQ(cache.find(first.get()), nullptr) << "the reads were forgotten";
  cache.add(entry(first), {&r});
  cache.add(entry(second), {&r});
  EXPECT_NE(cache.find(first.get()), nullptr);
  cache.add(entry(ctx.ult(iw, jw)), {&r});
  EXPECT_EQ(cache.find(first.get()), nullptr) << "full: emptied before the third";
  EXPECT_NE(cache.find(ctx.ult(iw, jw).get()), nullptr);
}

// The reads kept across queries are bounded: past the capacity, the next query starts with
// none (no variable, no tie), and a read seen again gets a new variable.
TEST_F(Arrays, FreshReadsForgetEveryReadPastTheirCapacity) {
  ExprRef a = intArray({3, 6, 0, 7});
  FreshReads fresh(2);
  std::vector<ExprRef> selects;
  for (uint64_t k = 0; k < 3; ++k)
    selects.push_back(ctx.select(a, ctx.add(ctx.zext(ctx.select(i, ctx.constant(k, 32)), 64), ctx.constant(k, 64))));
  ExprRef first = fresh.variableFor(selects[0].get());
  EXPECT_EQ(fresh.variableFor(selects[0].get()), first) << "the same read, the same variable";
  fresh.variableFor(selects[1].get());
  fresh.tieWhole(first.get());
  fresh.startQuery(); // two reads: within the capacity
  EXPECT_EQ(fresh.size(), 2u);
  EXPECT_TRUE(fresh.tiedWhole(first.get()));
  EXPECT_EQ(fresh.timesForgotten(), 0u);
  fresh.variableFor(selects[2].get());
  const SymbolDecl *symbol = first->symbol();
  EXPECT_TRUE(fresh.isFresh(symbol));
  fresh.startQuery();
  EXPECT_EQ(fresh.size(), 0u);
  EXPECT_EQ(fresh.timesForgotten(), 1u);
  EXPECT_FALSE(fresh.tiedWhole(first.get()));
  EXPECT_FALSE(fresh.isFresh(symbol));
  ExprRef again = fresh.variableFor(selects[0].get());
  EXPECT_NE(again, first);
  EXPECT_TRUE(fresh.isFresh(again->symbol()));
}

// An index whose offset within an element is not fixed by its structure (a product of two
// inputs) is pruned by position only, whatever the engine said of the array's type.
TEST_F(Arrays, UnstructuredIndexFallsBackToByteWidth) {
  ExprRef a = intArray({1, 2, 3, 4});
  ExprRef x = ctx.zext(ctx.select(i, ctx.constant(0, 32)), 64), y = ctx.zext(ctx.select(j, ctx.constant(0, 32)), 64);
  Query q({ctx.ult(ctx.mul(x, y), ctx.constant(16, 64))}, ctx.eq(ctx.select(a, ctx.mul(x, y)), ctx.constant(3, 8)), {i, j});
  q.arrayTypes = wordTyped(a);
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  SolverResponse s = solver->check(q, true);
  ASSERT_EQ(s.result, SatResult::Sat);
  EXPECT_EQ(evaluate(ctx.mul(x, y).get(), s.model), 8u);
  EXPECT_EQ(layerCounter(*solver, "untyped_reads"), 1u);
}

// The element widths travel with a query to the solver pool: for the arrays it reads, in the
// dag it has anyway (the same bytes with or without them, a cache key); a malformed width is
// refused.
TEST_F(Arrays, ArrayTypesTravelWithTheQuery) {
  ExprRef a;
  Query q = runningExample(5, a);
  auto types = std::make_shared<ArrayTypes>(*q.arrayTypes);
  ExprRef unrelated = intArray({9, 9, 9, 9});
  types->elementBytes.emplace_back(unrelated, 4); // an array of the path, not of this query
  q.arrayTypes = types;
  v1::Query withTypes, without;
  serializeQuery(q, false, 0, withTypes);
  Query bare(q.constraints, q.expr, q.terms);
  serializeQuery(bare, false, 0, without);
  EXPECT_EQ(withTypes.dag().SerializeAsString(), without.dag().SerializeAsString());
  ASSERT_EQ(withTypes.array_types_size(), 1);

  ExprContext other;
  Query back = deserializeQuery(withTypes, other);
  ASSERT_TRUE(back.arrayTypes);
  ASSERT_EQ(back.arrayTypes->elementBytes.size(), 1u);
  EXPECT_EQ(back.arrayTypes->elementBytes[0].second, 4u);
  // The pool's typed layer decides it as the client's would: UNSAT by the pre-check.
  CountingSolver *core = nullptr;
  auto solver = typedChain(core);
  EXPECT_EQ(solver->check(back, false).result, SatResult::Unsat);
  EXPECT_EQ(core->calls, 0u);

  v1::Query bad = withTypes;
  bad.mutable_array_types(0)->set_bytes(3);
  EXPECT_THROW(deserializeQuery(bad, other), std::invalid_argument);
  bad = withTypes;
  bad.mutable_array_types(0)->set_root(withTypes.expr()); // a condition, not an array
  EXPECT_THROW(deserializeQuery(bad, other), std::invalid_argument);
}

// T11: on random small array queries, the layer (pre-check and CEGAR) agrees with plain Z3 and
// with cvc5 on every answer, and every model it gives satisfies the query.
TEST_F(Arrays, T11DifferentialAgainstZ3AndCvc5) {
  std::mt19937_64 rng(20211011);
  auto pick = [&](uint64_t n) { return rng() % n; };
  ExprRef in = ctx.symbol(ctx.declareArray("in", 6));
  auto inputByte = [&](unsigned k) { return ctx.select(in, ctx.constant(k, 32)); };
  std::unique_ptr<Solver> z3 = createZ3Solver(30), cvc5 = createCvc5Solver(30);
  ArraySolverOptions o;
  o.precheck = o.typed = true;
  std::unique_ptr<Solver> typed = createTypedArraySolver(createZ3Solver(30), o);
  // With the limit of what is abstracted raised above the positions of a read tied from the
  // start, the reads of the 80-byte tables are refined round by round (tied whole once a model
  // gets one wrong), which by default are left to the core: on a sample.
  ArraySolverOptions wide = o;
  wide.maxAxiomsPerRead = 128;
  std::unique_ptr<Solver> byRounds = createTypedArraySolver(createZ3Solver(30), wide);
  constexpr unsigned kRoundsEvery = 4;
  // Refined by the paper's axioms alone, never a read tied whole: on a sample.
  ArraySolverOptions axiomsOnly = o;
  axiomsOnly.axiomsBeforeWholeRead = ~0u;
  std::unique_ptr<Solver> byAxioms = createTypedArraySolver(createZ3Solver(30), axiomsOnly);
  constexpr unsigned kAxiomsEvery = 4;
  // The pre-check alone, with integer optimisation rather than its relaxation: on a sample.
  ArraySolverOptions exact;
  exact.precheck = true;
  exact.bounds = ArrayBounds::Integer;
  std::unique_ptr<Solver> prechecked = createTypedArraySolver(createZ3Solver(30), exact);
  constexpr unsigned kExactEvery = 16;
  // And bounded by GLPK's exact simplex over the relaxation: on another sample.
  ArraySolverOptions byGlpk;
  byGlpk.precheck = true;
  byGlpk.bounds = ArrayBounds::Glpk;
  std::unique_ptr<Solver> glpkPrechecked = createTypedArraySolver(createZ3Solver(30), byGlpk);
  // And by CBC's integer optimisation: on a third.
  ArraySolverOptions byCbc;
  byCbc.precheck = true;
  byCbc.bounds = ArrayBounds::Cbc;
  std::unique_ptr<Solver> cbcPrechecked = createTypedArraySolver(createZ3Solver(30), byCbc);
  unsigned sat = 0, unsat = 0;
  constexpr unsigned kQueries = 2000;
  constexpr unsigned kCvc5Every = 16; // cvc5 takes 20x Z3's time on these: a sample of them
  for (unsigned n = 0; n < kQueries; ++n) {
    // A table of 8-24 bytes (one in eight of 80: more positions than a read is tied whole for
    // from the start) of small values, some symbolic stores at constant positions, a few at
    // symbolic positions; reads of bytes and of aligned words at input-derived indices.
    const unsigned size = pick(8) == 0 ? 80 : 8 + 4 * unsigned(pick(5));
    std::vector<u128> bytes(size);
    for (u128 &b : bytes)
      b = pick(4) == 0 ? pick(256) : pick(8);
    ExprRef table = ctx.constArray(bytes, 8, 64);
    for (unsigned s = pick(3); s-- > 0;)
      table = ctx.store(table, ctx.constant(pick(size), 64), inputByte(unsigned(pick(6))));
    if (pick(4) == 0)
      table = ctx.store(table, ctx.zext(ctx.bvand(inputByte(unsigned(pick(6))), ctx.constant(size - 1, 8)), 64),
                        inputByte(unsigned(pick(6))));
    auto index = [&](unsigned scale) {
      // (the remainder at the input's width, as C computes it: a 64-bit remainder costs cvc5
      // seconds to bit-blast)
      ExprRef x = inputByte(unsigned(pick(6)));
      if (pick(2))
        x = ctx.urem(x, ctx.constant(size / scale, 8));
      x = ctx.zext(x, 64);
      return ctx.add(ctx.constant(pick(2) * scale, 64), ctx.mul(ctx.constant(scale, 64), x));
    };
    auto readTerm = [&]() -> ExprRef {
      if (pick(2))
        return ctx.zext(ctx.select(table, index(1)), 32);
      return ctx.readLE(table, index(4), 4);
    };
    std::vector<ExprRef> pc;
    for (unsigned c = 1 + unsigned(pick(3)); c-- > 0;) {
      ExprRef lhs = pick(3) ? readTerm() : ctx.zext(inputByte(unsigned(pick(6))), 32);
      ExprRef rhs = pick(2) ? readTerm() : c32(pick(12));
      switch (pick(4)) {
      case 0: pc.push_back(ctx.eq(lhs, rhs)); break;
      case 1: pc.push_back(ctx.ult(lhs, rhs)); break;
      case 2: pc.push_back(ctx.ne(lhs, rhs)); break;
      default: pc.push_back(ctx.ule(ctx.add(lhs, rhs), c32(pick(20)))); break;
      }
    }
    ExprRef expr = pc.back();
    pc.pop_back();
    Query q(pc, expr, {in});
    if (pick(2)) {
      const Expr *root = table.get();
      while (root->kind() == Kind::Store)
        root = root->kid(0);
      auto types = std::make_shared<ArrayTypes>();
      types->elementBytes.push_back({ExprRef(root), 4});
      q.arrayTypes = types;
    }
    const SatResult expected = z3->check(q, false).result;
    ASSERT_NE(expected, SatResult::Unknown);
    if (n % kCvc5Every == 0) {
      ASSERT_EQ(cvc5->check(q, false).result, expected) << "z3 and cvc5 disagree on query " << n;
    }
    if (n % kExactEvery == 1) {
      ASSERT_EQ(prechecked->check(q, false).result, expected) << "integer pre-check, query " << n;
    }
    if (n % kExactEvery == 5) {
      ASSERT_EQ(glpkPrechecked->check(q, false).result, expected) << "GLPK-bounded pre-check, query " << n;
    }
    if (n % kExactEvery == 9) {
      ASSERT_EQ(cbcPrechecked->check(q, false).result, expected) << "CBC-bounded pre-check, query " << n;
    }
    if (n % kRoundsEvery == 3) {
      ASSERT_EQ(byRounds->check(q, false).result, expected) << "refined by rounds, query " << n;
    }
    if (n % kAxiomsEvery == 2) {
      ASSERT_EQ(byAxioms->check(q, false).result, expected) << "refined by axioms, query " << n;
    }
    SolverResponse got = typed->check(q, true);
    EXPECT_EQ(got.result, expected) << "query " << n << ": " << got.reason;
    if (got.result != expected) {
      for (const ExprRef &c : q.constraints)
        ADD_FAILURE() << "constraint " << toString(c.get());
      FAIL() << "expr " << toString(q.expr.get());
    }
    if (got.result == SatResult::Sat) {
      ++sat;
      ASSERT_TRUE(modelSatisfies(q, got.model)) << "query " << n;
    } else {
      ++unsat;
    }
  }
  // Both answers were exercised, and both parts of the layer decided some queries.
  EXPECT_GT(sat, kQueries / 10);
  EXPECT_GT(unsat, kQueries / 10);
  EXPECT_GT(layerCounter(*typed, "precheck_unsat"), 0u);
  EXPECT_GT(layerCounter(*typed, "cegar_queries"), 0u);
  EXPECT_GT(layerCounter(*byRounds, "reads_tied_whole"), 0u);
  EXPECT_GT(layerCounter(*byAxioms, "axioms_added"), 0u);
  EXPECT_EQ(layerCounter(*byAxioms, "reads_tied_whole"), 0u);
  EXPECT_GT(layerCounter(*prechecked, "precheck_unsat"), 0u);
  EXPECT_GT(layerCounter(*glpkPrechecked, "precheck_unsat"), 0u);
  EXPECT_GT(layerCounter(*cbcPrechecked, "precheck_unsat"), 0u);
}

} // namespace
