// The session every solver has: the query kept whole, re-asked at each check.
#include "cairn/solver/SolverSession.h"

#include "cairn/solver/Solver.h"

namespace cairn {

SolverSession::~SolverSession() = default;

namespace {

class RestartingSession final : public SolverSession {
public:
  RestartingSession(Solver &solver, const Query &query) : solver_(solver), query_(query) {}
  void add(const ExprRef &constraint) override {
    query_.constraints.push_back(constraint);
    // The query is no longer the path's, nor one for one with the form the engine built.
    query_.path = nullptr;
    query_.original.reset();
  }
  SolverResponse check(bool wantModel) override { return solver_.check(query_, wantModel); }

private:
  Solver &solver_;
  Query query_;
};

} // namespace

std::unique_ptr<SolverSession> Solver::openSession(const Query &query) {
  return std::make_unique<RestartingSession>(*this, query);
}

} // namespace cairn
