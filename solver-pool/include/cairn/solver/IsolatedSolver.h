// A core solver running in a child process, so that a crash or hang of the solver cannot take
// the caller down: it becomes an Unknown answer with the reason, and the next query starts a
// fresh process.
#pragma once

#include "cairn/solver/SolverChain.h"

#include <sys/types.h>

namespace cairn {

class IsolatedSolver final : public Solver {
public:
  IsolatedSolver(CoreSolverKind kind, double timeoutSeconds);
  ~IsolatedSolver() override;

  SolverResponse check(const Query &query, bool wantModel) override;
  std::string name() const override;
  void collectStats(std::vector<SolverLayerStats> &out) const override { out.push_back(stats_); }
  void setTimeout(double seconds) override { timeout_ = seconds; }
  // Ends the child that is solving (the next query starts a fresh one).
  void interrupt() override;

  // The solver process, or -1 before the first query and after a crash.
  pid_t processId() const { return child_; }

private:
  SolverResponse ask(const Query &query, bool wantModel);
  bool startChild();
  std::string stopChild(bool kill); // returns how the process ended

  CoreSolverKind kind_;
  double timeout_;
  pid_t child_ = -1;
  int socket_ = -1;
  int wakeRead_ = -1, wakeWrite_ = -1; // interrupt() writes a byte, which the wait for an answer sees
  SolverLayerStats stats_;
};

} // namespace cairn
