// The ways of bounding an integer program's objectives (solver-pool/lib/arrays/IntegerProgram.h)
// against each other on random small programs of the linearisation's shape: GLPK's exact
// simplex gives Z3's linear-relaxation bounds, both contain the integer optimum's, and neither
// calls a feasible program infeasible; a coefficient no double holds leaves GLPK undecided.
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

TEST(IntegerProgram, GlpkBoundsAreZ3sRelaxationAndContainTheIntegerOptimum) {
  std::mt19937_64 rng(20261201);
  IntegerProgramSolver glpk(ArrayBounds::Glpk), relaxed(ArrayBounds::Relaxed), integer(ArrayBounds::Integer);
  unsigned feasible = 0, infeasible = 0, same = 0, undecided = 0;
  constexpr unsigned kPrograms = 400;
  for (unsigned n = 0; n < kPrograms; ++n) {
    std::vector<LinearExpr> objectives;
    const IntegerProgram p = randomProgram(rng, objectives);
    const auto g = glpk.ranges(p, nullptr, objectives);
    const auto r = relaxed.ranges(p, nullptr, objectives);
    const auto i = integer.ranges(p, nullptr, objectives);
    ASSERT_NE(g.status, Status::Unknown) << "program " << n;
    if (i.status == Status::Unknown) { // Z3's integer optimum past its time limit
      ++undecided;
      continue;
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
  std::printf("%u programs (%u feasible, %u infeasible, %u objectives bounded as Z3's relaxation): GLPK %.1f ms, "
              "Z3 relaxed %.1f ms, Z3 integer %.1f ms\n",
              kPrograms, feasible, infeasible, same, glpk.seconds() * 1e3, relaxed.seconds() * 1e3,
              integer.seconds() * 1e3);
}

TEST(IntegerProgram, GlpkLeavesProgramsWithInexactCoefficientsUndecided) {
  IntegerProgram p;
  const uint32_t x = p.addVariable(0, 10);
  p.add({{{x, (Int(1) << 60) + 1}}, -5}, IntegerProgram::Relation::LessEqualZero);
  IntegerProgramSolver glpk(ArrayBounds::Glpk);
  EXPECT_EQ(glpk.ranges(p, nullptr, {LinearExpr::variable(x)}).status, Status::Unknown);
  // A constant no double holds is rounded outwards (y <= 2^60 + 1 stays y <= 10).
  IntegerProgram q;
  const uint32_t y = q.addVariable(0, 10);
  q.add({{{y, 1}}, -((Int(1) << 60) + 1)}, IntegerProgram::Relation::LessEqualZero);
  const auto r = glpk.ranges(q, nullptr, {LinearExpr::variable(y)});
  ASSERT_EQ(r.status, Status::Feasible);
  EXPECT_EQ(r.ranges[0].lo, 0);
  EXPECT_EQ(r.ranges[0].hi, 10);
  // No variables, constant constraints only: decided without the simplex.
  IntegerProgram constant;
  EXPECT_EQ(glpk.feasible(constant), Status::Feasible);
  constant.addFalse();
  EXPECT_EQ(glpk.feasible(constant), Status::Infeasible);
}

} // namespace
