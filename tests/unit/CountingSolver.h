// A core solver for layer tests: Z3, counting the queries that reach it.
#pragma once

#include "cairn/expr/Assignment.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/Solver.h"

#include <gtest/gtest.h>

#include <string>

namespace cairn::unit {

class CountingSolver final : public Solver {
public:
  size_t calls = 0;
  std::vector<Query> seen; // each query asked, as asked
  std::unique_ptr<Solver> z3 = createZ3Solver(10);

  SolverResponse check(const Query &q, bool wantModel) override {
    ++calls;
    seen.push_back(q);
    return z3->check(q, wantModel);
  }
  std::string name() const override { return "counting"; }
  void collectStats(std::vector<SolverLayerStats> &out) const override {
    out.push_back({"counting", calls, calls, 0, 0, {}});
  }
  void setTimeout(double) override {}
};

// A counter a layer of `s`'s chain reports (SolverLayerStats::counters), by name.
inline uint64_t layerCounter(const Solver &s, const std::string &name) {
  std::vector<SolverLayerStats> stats;
  s.collectStats(stats);
  for (const SolverLayerStats &l : stats)
    for (const auto &[n, v] : l.counters)
      if (n == name)
        return v;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// Whether `model` satisfies every constraint of `q` and its expression.
inline bool modelSatisfies(const Query &q, const Assignment &model) {
  for (const ExprRef &c : q.constraints)
    if (c && !evaluatesTrue(c.get(), model))
      return false;
  return !q.expr || evaluatesTrue(q.expr.get(), model);
}

} // namespace cairn::unit
