// cairn.v1.SolverPool on one replica: the shared cache answers what it can on the service's
// queue threads; the rest waits for a lane. Solve reads its request bytes itself, so that
// unreadable ones are INVALID_ARGUMENT (gRPC's own parsing would call them INTERNAL).
//
// Solve is served through a completion queue of the service's own rather than gRPC's callback
// API: gRPC 1.51's callback threads sleep 100 ms after a second without events, so the first
// query after a quiet second (a worker's next item, say) waited up to 100 ms.
#pragma once

#include "LanePool.h"
#include "SharedCache.h"

#include "cairn/v1/solver_pool.grpc.pb.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace cairn::pool {

struct PoolServiceOptions {
  LaneOptions lane;
  size_t lanes = 1;
  double maxTimeoutSeconds = 0; // caps every query's time limit; 0: no cap
  uint64_t cacheBytes = uint64_t(256) << 20;
  // Bearer tokens a call must carry (authorization: Bearer TOKEN); empty: none needed.
  std::set<std::string> tokens;
};

class PoolService final
    : public v1::SolverPool::WithRawMethod_Solve<
          v1::SolverPool::WithCallbackMethod_Stats<v1::SolverPool::Service>> {
public:
  explicit PoolService(const PoolServiceOptions &options);

  // Registers the service with `builder` and takes a completion queue of it; start() once the
  // server is built.
  void registerWith(grpc::ServerBuilder &builder);
  void start();

  grpc::ServerUnaryReactor *Stats(grpc::CallbackServerContext *context,
                                  const v1::StatsRequest *request,
                                  v1::StatsResponse *response) override;

  // Ends the lanes: queued requests are answered UNAVAILABLE, those being solved finish.
  void stop();
  // After the server's Shutdown(): waits for the lanes, then drains the queue and ends its
  // threads.
  void join();

  void fillStats(v1::StatsResponse &out) const;

private:
  struct Call;
  void serveQueue();
  void requestCall();
  void handle(Call *call);
  void solveOnLane(Call &call, Lane *lane);
  double timeLimit(double requested, const grpc::ServerContextBase &context) const;
  grpc::Status authenticate(const grpc::ServerContextBase &context) const;

  PoolServiceOptions options_;
  SharedCache cache_;
  LanePool lanes_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<uint64_t> requests_{0}, invalid_{0}, solved_{0};

  std::unique_ptr<grpc::ServerCompletionQueue> queue_;
  std::vector<std::thread> queueThreads_;
  std::mutex queueMutex_; // orders requestCall() before the queue's shutdown
  bool queueClosed_ = false;
};

} // namespace cairn::pool
