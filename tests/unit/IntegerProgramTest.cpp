// The ways of bounding an integer program's objectives (solver-pool/lib/arrays/IntegerProgram.h)
// against each other on random small programs of the linearisation's shape: GLPK's exact
// simplex gives Z3's linear-relaxation bounds, both contain the integer optimum's, and neither
// calls a feasible program infeasible; CBC gives Z3's integer optimum; a coefficient no double
// holds leaves GLPK and CBC undecided.
#include "arrays/IntegerProgram.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using namespace cairn;
using namespace cairn::arrays;

namespace {

using Status = IntegerProgramSolver::Status;

IntegerProgram randomProgram(std::mt19937_64 &rng, std::vector<LinearExpr> &objectives) {
  auto pick = [&](uint64_t n) { return Int(rng() % n); };
  IntegerProgram p;
  const unsigned variables = 1 + unsigned(pick(4));
  for (unsigned v = 0; v < variables; ++v)
    p.addVariable(pick(2) ? 0 : -pick(300), pick(4) == 0 ? (Int(1) << 64) - 1 : 255 + pick(2000));
  for (unsigned c = unsigned(pick(4)); c-- > 0;) {
    LinearExpr e;
    for (unsigned v = 0; v < variables; ++v)
      if (pick(2))
        e.terms.push_back({v, pick(9) - 4});
    e.constant = pick(600) - 300;
    p.add(e, pick(5) == 0 ? IntegerProgram::Relation::EqualZero : IntegerProgram::Relation::LessEqualZero);
  }
  objectives.clear();
  for (unsigned o = 1 + unsigned(pick(2)); o-- > 0;) {
    LinearExpr e;
    e.terms.push_back({uint32_t(pick(variables)), 1 + pick(8)});
    e.constant = pick(64);
    objectives.push_back(e);
  }
  return p;
}

TEST(IntegerProgram, GlpkBoundsAreZ3sRelaxationCbcsTheIntegerOptimum) {
  std::mt19937_64 rng(20261201);
  IntegerProgramSolver glpk(ArrayBounds::Glpk), relaxed(ArrayBounds::Relaxed), integer(ArrayBounds::Integer),
      cbc(ArrayBounds::Cbc);
  unsigned feasible = 0, infeasible = 0, same = 0, undecided = 0, cbcExact = 0, cbcBounded = 0;
  constexpr unsigned kPrograms = 400;
  for (unsigned n = 0; n < kPrograms; ++n) {
    std::vector<LinearExpr> objectives;
    const IntegerProgram p = randomProgram(rng, objectives);
    const auto g = glpk.ranges(p, nullptr, objectives);
    const auto r = relaxed.ranges(p, nullptr, objectives);
    const auto i = integer.ranges(p, nullptr, objectives);
    const auto c = cbc.ranges(p, nullptr, objectives);
    ASSERT_NE(g.status, Status::Unknown) << "program " << n;
    if (i.status == Status::Unknown) { // Z3's integer optimum past its time limit
      ++undecided;
      continue;
    }
    if (c.status != Status::Unknown) {
      EXPECT_EQ(c.status, i.status) << "program " << n;
      if (c.status == Status::Feasible && i.status == Status::Feasible) {
        ++cbcBounded;
        bool exact = true;
        for (size_t k = 0; k < objectives.size(); ++k) {
          EXPECT_LE(c.ranges[k].lo, i.ranges[k].lo) << "program " << n;
          EXPECT_GE(c.ranges[k].hi, i.ranges[k].hi) << "program " << n;
          exact = exact && c.ranges[k].lo == i.ranges[k].lo && c.ranges[k].hi == i.ranges[k].hi;
        }
        cbcExact += exact;
      }
    }
    if (g.status == Status::Infeasible) {
      ++infeasible;
      EXPECT_EQ(i.status, Status::Infeasible) << "program " << n; // infeasible over the rationals
      continue;
    }
    ++feasible;
    if (i.status == Status::Infeasible)
      continue; // feasible over the rationals only
    ASSERT_EQ(g.ranges.size(), objectives.size());
    for (size_t k = 0; k < objectives.size(); ++k) {
      EXPECT_LE(g.ranges[k].lo, i.ranges[k].lo) << "program " << n;
      EXPECT_GE(g.ranges[k].hi, i.ranges[k].hi) << "program " << n;
      if (r.status == Status::Feasible)
        same += g.ranges[k].lo == r.ranges[k].lo && g.ranges[k].hi == r.ranges[k].hi;
    }
  }
  EXPECT_LT(undecided, kPrograms / 20);
  EXPECT_GT(feasible, kPrograms / 4);
  EXPECT_GT(infeasible, kPrograms / 20);
  EXPECT_GT(same, feasible * 9 / 10); // the same relaxation, up to GLPK's rounding margin
  EXPECT_EQ(glpk.calls(), kPrograms);
  // CBC in doubles: its optima widened past its tolerances may lose the last unit where the
  // numbers are large (bounds near 2^64), never more.
  EXPECT_GT(cbcBounded, feasible / 2);
  EXPECT_GT(cbcExact, cbcBounded * 9 / 10);
  std::printf("%u programs (%u feasible, %u infeasible, %u objectives bounded as Z3's relaxation, %u of %u "
              "programs bounded by CBC as Z3's integer optimum): GLPK %.1f ms, Z3 relaxed %.1f ms, Z3 integer "
              "%.1f ms, CBC %.1f ms\n",
              kPrograms, feasible, infeasible, same, cbcExact, cbcBounded, glpk.seconds() * 1e3,
              relaxed.seconds() * 1e3, integer.seconds() * 1e3, cbc.seconds() * 1e3);
}

TEST(IntegerProgram, GlpkAndCbcLeaveProgramsWithInexactCoefficientsUndecided) {
  IntegerProgram p;
  const uint32_t x = p.addVariable(0, 10);
  p.add({{{x, (Int(1) << 60) + 1}}, -5}, IntegerProgram::Relation::LessEqualZero);
  IntegerProgramSolver glpk(ArrayBounds::Glpk), cbc(ArrayBounds::Cbc);
  EXPECT_EQ(glpk.ranges(p, nullptr, {LinearExpr::variable(x)}).status, Status::Unknown);
  EXPECT_EQ(cbc.ranges(p, nullptr, {LinearExpr::variable(x)}).status, Status::Unknown);
  // A constant no double holds is rounded outwards (y <= 2^60 + 1 stays y <= 10).
  IntegerProgram q;
  const uint32_t y = q.addVariable(0, 10);
  q.add({{{y, 1}}, -((Int(1) << 60) + 1)}, IntegerProgram::Relation::LessEqualZero);
  const auto r = glpk.ranges(q, nullptr, {LinearExpr::variable(y)});
  ASSERT_EQ(r.status, Status::Feasible);
  EXPECT_EQ(r.ranges[0].lo, 0);
  EXPECT_EQ(r.ranges[0].hi, 10);
  const auto c = cbc.ranges(q, nullptr, {LinearExpr::variable(y)});
  ASSERT_EQ(c.status, Status::Feasible);
  EXPECT_EQ(c.ranges[0].lo, 0);
  EXPECT_EQ(c.ranges[0].hi, 10);
  // No variables, constant constraints only: decided without the simplex.
  IntegerProgram constant;
  EXPECT_EQ(glpk.feasible(constant), Status::Feasible);
  constant.addFalse();
  EXPECT_EQ(glpk.feasible(constant), Status::Infeasible);
  EXPECT_EQ(cbc.feasible(constant), Status::Infeasible);
}

// Feasible over the rationals, not over the integers: only an integer method says infeasible,
// and CBC's word is confirmed.
TEST(IntegerProgram, CbcFindsIntegerInfeasibilityTheRelaxationMisses) {
  IntegerProgram p;
  const uint32_t x = p.addVariable(0, 100), y = p.addVariable(0, 100);
  p.addEqual({{{x, 2}, {y, 2}}, 0}, LinearExpr::number(7)); // 2x + 2y = 7
  IntegerProgramSolver glpk(ArrayBounds::Glpk), cbc(ArrayBounds::Cbc);
  EXPECT_EQ(glpk.feasible(p), Status::Feasible);
  EXPECT_EQ(cbc.feasible(p), Status::Infeasible);
  // 2x + 2y = 8 with x >= 3: y in [0, 1], x in [3, 4].
  IntegerProgram q;
  const uint32_t a = q.addVariable(3, 100), b = q.addVariable(0, 100);
  q.addEqual({{{a, 2}, {b, 2}}, 0}, LinearExpr::number(8));
  const auto r = cbc.ranges(q, nullptr, {LinearExpr::variable(a), LinearExpr::variable(b)});
  ASSERT_EQ(r.status, Status::Feasible);
  EXPECT_EQ(r.ranges[0].lo, 3);
  EXPECT_EQ(r.ranges[0].hi, 4);
  EXPECT_EQ(r.ranges[1].lo, 0);
  EXPECT_EQ(r.ranges[1].hi, 1);
}

} // namespace
