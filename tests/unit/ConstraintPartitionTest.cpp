// Independence slicing with a path's kept partition (ConstraintList) must send exactly the
// constraints, and split a model query into exactly the parts, that slicing the bare constraint
// vector does: random paths over scalars and array elements, grown, forked (sharing the
// partition), cut back and queried at every step.
#include "ConstraintPartition.h"

#include "cairn/solver/SolverChain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace cairn;

namespace {

// Answers Sat (no model) and remembers the constraint sets that reached it, query by query.
class RecordingSolver final : public Solver {
public:
  std::vector<std::set<const Expr *>> seen;
  SolverResponse check(const Query &q, bool) override {
    std::set<const Expr *> constraints;
    for (const ExprRef &c : q.constraints)
      constraints.insert(c.get());
    seen.push_back(std::move(constraints));
    return {SatResult::Sat, {}, {}};
  }
  std::string name() const override { return "recorder"; }
  void collectStats(std::vector<SolverLayerStats> &) const override {}
  void setTimeout(double) override {}
};

struct RandomPaths {
  ExprContext ctx;
  std::mt19937 rng{20261127};
  std::vector<ExprRef> arrays, scalars;

  RandomPaths() {
    for (int a = 0; a < 3; ++a)
      arrays.push_back(ctx.symbol(ctx.declareArray("in" + std::to_string(a), 16)));
    for (int s = 0; s < 4; ++s)
      scalars.push_back(ctx.symbol(ctx.declareSymbol("s" + std::to_string(s), 8, SymbolClass::Input)));
  }
  unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng); }

  // A byte read: mostly at a constant index, sometimes at a symbolic one (a whole-array read).
  ExprRef byte() {
    const ExprRef &a = arrays[pick(unsigned(arrays.size()))];
    if (pick(12) == 0)
      return ctx.select(a, ctx.zext(scalars[pick(unsigned(scalars.size()))], 32));
    return ctx.select(a, ctx.constant(pick(16), 32));
  }
  ExprRef term() { return pick(3) == 0 ? scalars[pick(unsigned(scalars.size()))] : byte(); }
  ExprRef constraint() {
    ExprRef t = term();
    switch (pick(4)) {
    case 0: return ctx.ult(t, ctx.constant(1 + pick(250), 8));
    case 1: return ctx.ne(t, term());
    case 2: return ctx.ule(ctx.add(t, term()), ctx.constant(pick(256), 8));
    default: return ctx.eq(ctx.bvxor(t, ctx.constant(pick(256), 8)), term());
    }
  }
};

// The two layers' views of the same question, side by side.
void expectSameSlices(RandomPaths &r, const ConstraintList &path) {
  auto withPartition = std::make_unique<RecordingSolver>(), bare = std::make_unique<RecordingSolver>();
  RecordingSolver &a = *withPartition, &b = *bare;
  auto sliceA = createIndependentSolver(std::move(withPartition));
  auto sliceB = createIndependentSolver(std::move(bare));
  const std::vector<ExprRef> &plain = path.exprs();
  for (int q = 0; q < 4; ++q) {
    ExprRef e = r.constraint();
    sliceA->mayBeTrue(path, e);
    sliceB->mayBeTrue(plain, e);
  }
  std::vector<ExprRef> terms = {r.arrays[r.pick(3)], r.term()};
  sliceA->getInitialValues(path, terms);
  sliceB->getInitialValues(plain, terms);
  ExprRef value = r.ctx.add(r.term(), r.term());
  sliceA->getValue(path, value);
  sliceB->getValue(plain, value);
  ASSERT_EQ(a.seen.size(), b.seen.size());
  for (size_t i = 0; i < a.seen.size(); ++i)
    EXPECT_EQ(a.seen[i], b.seen[i]) << "query " << i << " of a path of " << path.size();
}

TEST(ConstraintPartition, SlicesAsTheFixpointDoesOnGrowingForkedAndCutPaths) {
  RandomPaths r;
  std::vector<ConstraintList> live(1);
  for (int step = 0; step < 400; ++step) {
    ConstraintList &path = live[r.pick(unsigned(live.size()))];
    switch (r.pick(10)) {
    case 0: // fork: the copy shares the partition until one of them grows
      if (live.size() < 8) {
        ConstraintList copy = path;
        live.push_back(std::move(copy));
      }
      break;
    case 1: path.truncate(path.size() / 2); break;
    default: path.push_back(r.constraint());
    }
    expectSameSlices(r, live[r.pick(unsigned(live.size()))]);
    if (::testing::Test::HasFailure())
      return;
  }
}

TEST(ConstraintPartition, GroupsAreTheConnectedFootprints) {
  ExprContext ctx;
  ExprRef in = ctx.symbol(ctx.declareArray("in", 8));
  ExprRef x = ctx.symbol(ctx.declareSymbol("x", 8, SymbolClass::Input));
  auto at = [&](unsigned i) { return ctx.select(in, ctx.constant(i, 32)); };
  ConstraintPartition p;
  p.add(ctx.ult(at(0), ctx.constant(9, 8)));  // 0: in[0]
  p.add(ctx.ult(at(1), ctx.constant(9, 8)));  // 1: in[1]
  p.add(ctx.eq(x, ctx.constant(3, 8)));       // 2: x
  p.add(ctx.eq(at(1), x));                    // 3: joins 1 and 2
  EXPECT_NE(p.group(0), p.group(1));
  EXPECT_EQ(p.group(1), p.group(2));
  EXPECT_EQ(p.group(2), p.group(3));
  std::vector<uint32_t> members;
  p.members(p.group(3), members);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<uint32_t>{1, 2, 3}));
  // A read at a symbolic index reads the array whole: every group on it joins.
  p.add(ctx.ult(ctx.select(in, ctx.zext(x, 32)), ctx.constant(5, 8)));
  EXPECT_EQ(p.group(0), p.group(4));
  Footprint wanted;
  wanted.addElement(in.get()->symbol(), 7); // no constraint reads in[7], but one reads `in` whole
  wanted.normalize();
  std::vector<uint32_t> groups;
  p.groupsReading(wanted, groups);
  EXPECT_EQ(groups, (std::vector<uint32_t>{p.group(0)}));
}

} // namespace
