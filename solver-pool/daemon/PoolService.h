// cairn.v1.SolverPool on one replica: the shared cache answers what it can on gRPC's threads;
// the rest waits for a lane. Solve reads its request bytes itself, so that unreadable ones are
// INVALID_ARGUMENT (gRPC's own parsing would call them INTERNAL).
#pragma once

#include "LanePool.h"
#include "SharedCache.h"

#include "cairn/v1/solver_pool.grpc.pb.h"

#include <atomic>
#include <chrono>

namespace cairn::pool {

struct PoolServiceOptions {
  LaneOptions lane;
  size_t lanes = 1;
  double maxTimeoutSeconds = 0; // caps every query's time limit; 0: no cap
  uint64_t cacheBytes = uint64_t(256) << 20;
};

class PoolService final
    : public v1::SolverPool::WithRawCallbackMethod_Solve<
          v1::SolverPool::WithCallbackMethod_Stats<v1::SolverPool::Service>> {
public:
  explicit PoolService(const PoolServiceOptions &options);

  grpc::ServerUnaryReactor *Solve(grpc::CallbackServerContext *context,
                                  const grpc::ByteBuffer *request,
                                  grpc::ByteBuffer *response) override;
  grpc::ServerUnaryReactor *Stats(grpc::CallbackServerContext *context,
                                  const v1::StatsRequest *request,
                                  v1::StatsResponse *response) override;

  // Ends the lanes: queued requests are answered UNAVAILABLE, those being solved finish.
  void stop();
  void join() { lanes_.join(); }

  void fillStats(v1::StatsResponse &out) const;

private:
  struct Call;
  void solveOnLane(Call &call, Lane *lane);
  double timeLimit(double requested, const grpc::CallbackServerContext &context) const;

  PoolServiceOptions options_;
  SharedCache cache_;
  LanePool lanes_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<uint64_t> requests_{0}, invalid_{0}, solved_{0};
};

} // namespace cairn::pool
