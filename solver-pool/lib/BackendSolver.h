// What the Z3 and cvc5 backends have in common as Solvers (private to solver-pool/lib; no
// solver headers): their name and statistics, the time limit, and the rule that a backend
// failure (an exception of the solver library or ours) is an Unknown answer, not an error.
#pragma once

#include "cairn/solver/Solver.h"

#include <cmath>
#include <exception>
#include <string>
#include <vector>

namespace cairn::backend {

class BackendSolver : public Solver {
public:
  std::string name() const final { return name_; }

  void collectStats(std::vector<SolverLayerStats> &out) const final {
    SolverLayerStats s = stats_;
    s.layer = name_;
    out.push_back(std::move(s));
  }

  void setTimeout(double seconds) final {
    timeoutSeconds_ = std::isfinite(seconds) && seconds > 0 ? seconds : 0;
  }

  SolverResponse check(const Query &query, bool wantModel) final {
    ++stats_.queries;
    ScopedSolverTimer timer(stats_);
    SolverResponse r;
    try {
      r = solve(query, wantModel);
    } catch (const std::exception &e) { // the solver libraries' exceptions derive from it too
      r = SolverResponse::unknown(name_ + ": " + e.what());
      recover();
    } catch (...) {
      r = SolverResponse::unknown(name_ + ": unknown exception");
      recover();
    }
    if (r.result == SatResult::Unknown)
      ++stats_.unknown;
    else
      ++stats_.answered;
    return r;
  }

protected:
  BackendSolver(std::string name, double timeoutSeconds) : name_(std::move(name)) {
    setTimeout(timeoutSeconds);
  }

  virtual SolverResponse solve(const Query &query, bool wantModel) = 0;
  // After solve() threw: the backend may have been left in any state.
  virtual void recover() {}

  double timeoutSeconds() const { return timeoutSeconds_; } // 0: none

private:
  std::string name_;
  double timeoutSeconds_ = 0;
  SolverLayerStats stats_;
};

} // namespace cairn::backend
