// The benchmarks' exploration-shaped query workload: what an engine asks while exploring a small
// input parser, depth first.
#pragma once

#include "cairn/solver/Solver.h"

#include <chrono>
#include <functional>

namespace cairn::bench {

struct WorkloadResult {
  uint64_t queries = 0; // engine questions
  double seconds = 0;
  std::vector<SolverLayerStats> layers;
};

// A depth-first exploration of a parser that checks each byte of a `depth`-byte input against a
// few ranges: every branch asks whether each side is feasible, and every leaf asks for a model,
// as an engine would. Constraints on different bytes are independent.
inline WorkloadResult explore(ExprContext &ctx, Solver &solver, unsigned depth) {
  ExprRef input = ctx.symbol(ctx.declareArray("input", depth));
  WorkloadResult out;
  auto start = std::chrono::steady_clock::now();
  std::vector<ExprRef> pc;
  // Explores both sides of `cond` that are feasible under the current path.
  auto branch = [&](const ExprRef &cond, const std::function<void()> &onTrue,
                    const std::function<void()> &onFalse) {
    ++out.queries;
    Answer<Validity> v = solver.evaluate(pc, cond);
    if (!v.known())
      return;
    if (*v != Validity::False) {
      pc.push_back(cond);
      onTrue();
      pc.pop_back();
    }
    if (*v != Validity::True) {
      pc.push_back(ctx.lnot(cond));
      onFalse();
      pc.pop_back();
    }
  };
  std::function<void(unsigned)> walk = [&](unsigned level) {
    if (level == depth) {
      ++out.queries;
      solver.getInitialValues(pc, {input});
      return;
    }
    ExprRef byte = ctx.select(input, ctx.constant(level, 32));
    auto next = [&] { walk(level + 1); };
    branch(ctx.ult(byte, ctx.constant(48, 8)), next,
           [&] { branch(ctx.ult(byte, ctx.constant(58, 8)), next, next); });
  };
  walk(0);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solver.collectStats(out.layers);
  return out;
}

} // namespace cairn::bench
