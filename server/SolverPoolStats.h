// The solver pool's numbers for the dashboard: the coordinator started with --solver-pool asks
// each replica for its Stats (cache lookups and hits, lanes, queue) when the page asks, with a
// short deadline, so an unreachable replica shows as such rather than holding the page up.
#pragma once

#include "cairn/v1/dashboard.pb.h"
#include "cairn/v1/solver_pool.grpc.pb.h"

#include <memory>
#include <string>
#include <vector>

namespace cairn::server {

class SolverPoolStats {
public:
  // `addresses`: HOST:PORT of each replica; none: the view says the pool is not configured.
  // `token`: what the replicas accept (empty: none sent).
  explicit SolverPoolStats(std::vector<std::string> addresses, const std::string &token = "",
                           double deadlineSeconds = 1.0);
  v1::SolverPoolView query();

private:
  struct Replica {
    std::string address;
    std::unique_ptr<v1::SolverPool::Stub> stub;
  };
  std::vector<Replica> replicas_;
  double deadlineSeconds_;
};

} // namespace cairn::server
