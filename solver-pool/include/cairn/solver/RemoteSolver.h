// A core solver that sends queries to a solver pool (cairn-solver-pool replicas) and rebuilds
// the answers in the asking context.
//
// A query goes to the replica its route hash picks, so repeats meet the cache that holds their
// answer; a replica that is unreachable, fails or misses the deadline (the time limit plus a
// margin) is skipped for a while (1 s, doubling up to 30 s) and the next one is asked. When no
// replica answers, an in-process solver does, so a run never loses a query to the network.
#pragma once

#include "cairn/solver/SolverChain.h"

#include <memory>
#include <string>
#include <vector>

namespace cairn {

struct RemoteSolverOptions {
  std::vector<std::string> endpoints; // HOST:PORT of each replica
  double timeoutSeconds = 0;          // per query; 0: none (and no deadline)
  // Added to the time limit to make the call's deadline: the network and the pool's queue.
  double deadlineMarginSeconds = 2;
  // The in-process solver for queries no replica answers.
  CoreSolverKind fallback = CoreSolverKind::Z3;
  std::optional<CoreSolverKind> floatFallback; // SolverChainOptions::floatCore
  bool isolateFallback = false;
  // Sent on every call (authorization: Bearer TOKEN) to a pool that asks for one; empty: none.
  std::string token;
};

class RemoteSolver final : public Solver {
public:
  explicit RemoteSolver(RemoteSolverOptions options);
  ~RemoteSolver() override;

  SolverResponse check(const Query &query, bool wantModel) override;
  std::string name() const override;
  // One layer, "pool": every query that reached it; `answered` counts the pool's cache hits.
  void collectStats(std::vector<SolverLayerStats> &out) const override;
  void setTimeout(double seconds) override;
  // Cancels the call in flight (no other replica and no fallback is asked for that query) or
  // interrupts the fallback.
  void interrupt() override;

  // Queries the in-process fallback answered.
  uint64_t fallbackQueries() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace cairn
