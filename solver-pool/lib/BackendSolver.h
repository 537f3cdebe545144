// What the Z3 and cvc5 backends have in common as Solvers (private to solver-pool/lib; no
// solver headers): their name and statistics, the time limit, the rule that a backend failure
// (an exception of the solver library or ours) is an Unknown answer, not an error, and
// sessions (SolverSession.h) on the backend's incremental solver.
#pragma once

#include "cairn/solver/Solver.h"

#include <cmath>
#include <exception>
#include <memory>
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
    return guarded([&] { return solve(query, wantModel); });
  }

  std::unique_ptr<SolverSession> openSession(const Query &query) final;

protected:
  // The backend's incremental solver for one session: the query's constraints arrive through
  // add(); check() gets the whole query (for the symbols its model must bind).
  class Incremental {
  public:
    virtual ~Incremental() = default;
    virtual void add(const Expr *constraint) = 0;
    virtual SolverResponse check(const Query &whole, bool wantModel) = 0;
  };
  // Null where the backend has none for this query: the session then solves it whole each time.
  virtual std::unique_ptr<Incremental> startIncremental(const Query &) { return nullptr; }

  BackendSolver(std::string name, double timeoutSeconds) : name_(std::move(name)) {
    setTimeout(timeoutSeconds);
  }

  virtual SolverResponse solve(const Query &query, bool wantModel) = 0;
  // After solve() threw: the backend may have been left in any state.
  virtual void recover() {}

  double timeoutSeconds() const { return timeoutSeconds_; } // 0: none

private:
  class Session;

  // A question to the backend, counted and timed, with its failures made Unknown answers.
  template <class Ask> SolverResponse guarded(Ask &&ask) {
    ++stats_.queries;
    ScopedSolverTimer timer(stats_);
    SolverResponse r;
    try {
      r = ask();
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

  std::string name_;
  double timeoutSeconds_ = 0;
  SolverLayerStats stats_;
};

// A session on a backend: its incremental solver when it has one, else the query solved whole;
// after the incremental solver failed (the backend recovered, so its state is gone) the rest of
// the session solves the query whole.
class BackendSolver::Session final : public SolverSession {
public:
  Session(BackendSolver &backend, const Query &query) : backend_(backend), query_(query) {
    query_.path = nullptr;
    query_.original.reset();
  }
  void add(const ExprRef &constraint) override { query_.constraints.push_back(constraint); }
  SolverResponse check(bool wantModel) override {
    return backend_.guarded([&] {
      if (!started_) {
        started_ = true;
        incremental_ = backend_.startIncremental(query_);
      }
      if (!incremental_)
        return backend_.solve(query_, wantModel);
      try {
        if (!sentExpr_ && query_.expr)
          incremental_->add(query_.expr.get());
        sentExpr_ = true;
        for (; sent_ < query_.constraints.size(); ++sent_)
          if (query_.constraints[sent_])
            incremental_->add(query_.constraints[sent_].get());
        return incremental_->check(query_, wantModel);
      } catch (...) {
        incremental_.reset(); // before the backend recovers: it may share the backend's state
        throw;
      }
    });
  }

private:
  BackendSolver &backend_;
  Query query_;
  std::unique_ptr<Incremental> incremental_;
  size_t sent_ = 0;
  bool started_ = false, sentExpr_ = false;
};

inline std::unique_ptr<SolverSession> BackendSolver::openSession(const Query &query) {
  return std::make_unique<Session>(*this, query);
}

} // namespace cairn::backend
