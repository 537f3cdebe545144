// The client side of the solver pool: one channel per replica, routing by the question asked,
// failover in route order, and an in-process solver when no replica answers.
#include "cairn/solver/RemoteSolver.h"
#include "cairn/solver/SolverChain.h"

#include "CoreSolverName.h"
#include "cairn/auth/BearerChannel.h"
#include "cairn/solver/PoolProtocol.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/v1/solver_pool.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>

namespace cairn {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kFirstBackoffSeconds = 1;
constexpr double kMaxBackoffSeconds = 30;
constexpr int kMaxMessageBytes = 256 << 20; // far above any real query; gRPC's default is 4 MiB

std::shared_ptr<grpc::Channel> openChannel(const std::string &address, const std::string &token) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  // A replica that stops answering mid-query (hung, or its host gone) is noticed by pings even
  // when the query has no deadline; cairn-solver-pool accepts pings this often.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 10000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  // gRPC's own reconnection backoff grows to two minutes; a restarted replica should be back
  // in use about as soon as this solver's own backoff lets it.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 5000);
  return auth::channelWithToken(address, grpc::InsecureChannelCredentials(), args, token);
}

// One channel per replica address for the whole process: a worker builds a solver chain for
// every work item, and a channel of its own would connect anew (TCP and HTTP/2 handshakes) on
// each item's first query; cairn-bench-pool's fresh engines answer ~13% more queries a second.
std::shared_ptr<grpc::Channel> sharedChannel(const std::string &address, const std::string &token) {
  static std::mutex mutex;
  // Never destroyed: a RemoteSolver may outlive static destruction.
  static auto *channels = new std::map<std::pair<std::string, std::string>, std::shared_ptr<grpc::Channel>>;
  std::lock_guard lock(mutex);
  std::shared_ptr<grpc::Channel> &channel = (*channels)[{address, token}];
  if (!channel)
    channel = openChannel(address, token);
  return channel;
}

// Failures that say something about the replica rather than the query.
bool replicaFailure(grpc::StatusCode code) {
  return code != grpc::StatusCode::OK && code != grpc::StatusCode::INVALID_ARGUMENT;
}

} // namespace

struct RemoteSolver::Impl {
  struct Replica {
    std::string address;
    std::unique_ptr<v1::SolverPool::Stub> stub;
    Clock::time_point skipUntil{};
    double backoff = 0; // seconds; 0 while the replica answers
  };

  RemoteSolverOptions options;
  std::vector<Replica> replicas;
  std::unique_ptr<Solver> fallback;
  // What interrupt() reaches from another thread: the call in flight, the fallback, and
  // whether the query was interrupted (its call then ends CANCELLED).
  std::mutex interruptMutex;
  grpc::ClientContext *inFlight = nullptr;
  bool interrupted = false;
  SolverLayerStats stats;
  uint64_t fallbackQueries = 0;
  bool warnedFallback = false;
  uint64_t requestIdBase;
  uint64_t nextRequest = 0;

  explicit Impl(RemoteSolverOptions o) : options(std::move(o)) {
    if (options.endpoints.empty())
      throw std::invalid_argument("RemoteSolver needs at least one solver pool endpoint");
    for (const std::string &address : options.endpoints)
      replicas.push_back({address, v1::SolverPool::NewStub(sharedChannel(address, options.token))});
    stats.layer = "pool";
    // Request ids of different clients differ in their high bits, so the pool's log tells them
    // apart.
    requestIdBase = uint64_t(std::random_device{}()) << 32;
  }

  Solver &fallbackSolver() {
    if (!fallback) {
      // The pool's lanes answer bounded universals with the quantified procedure: so does the
      // fallback (the chain above has no quantified layer of its own when a pool is used).
      auto made = createQuantifiedSolver(createLocalCore(options.fallback, options.floatFallback,
                                                         options.isolateFallback, options.timeoutSeconds));
      std::lock_guard lock(interruptMutex);
      fallback = std::move(made);
    }
    return *fallback;
  }

  void interrupt() {
    std::lock_guard lock(interruptMutex);
    if (inFlight) {
      interrupted = true;
      inFlight->TryCancel();
    }
    if (fallback)
      fallback->interrupt();
  }

  bool wasInterrupted() {
    std::lock_guard lock(interruptMutex);
    return interrupted;
  }

  void markFailed(Replica &r, const grpc::Status &status) {
    if (r.backoff == 0)
      spdlog::warn("solver pool replica {} failed ({}: {}); trying the others", r.address,
                   int(status.error_code()), status.error_message());
    r.backoff = r.backoff == 0 ? kFirstBackoffSeconds : std::min(r.backoff * 2, kMaxBackoffSeconds);
    r.skipUntil = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(r.backoff));
  }

  void markAnswered(Replica &r) {
    if (r.backoff != 0)
      spdlog::info("solver pool replica {} answers again", r.address);
    r.backoff = 0;
  }

  // Asks one replica. Returns the status, and the answer in `out` when it is OK and readable.
  grpc::Status ask(Replica &r, const v1::SolveRequest &request, ExprContext &ctx,
                   SolverResponse &out, bool &cached) {
    grpc::ClientContext call;
    if (options.timeoutSeconds > 0)
      call.set_deadline(std::chrono::system_clock::now() +
                        std::chrono::duration_cast<std::chrono::system_clock::duration>(
                            std::chrono::duration<double>(options.timeoutSeconds +
                                                          options.deadlineMarginSeconds)));
    v1::SolveResponse response;
    {
      std::lock_guard lock(interruptMutex);
      inFlight = &call;
      interrupted = false;
    }
    grpc::Status status = r.stub->Solve(&call, request, &response);
    {
      std::lock_guard lock(interruptMutex);
      inFlight = nullptr;
    }
    if (!status.ok())
      return status;
    try {
      out = deserializeResponse(response.response(), ctx);
    } catch (const std::exception &e) {
      // A replica of another version, or a broken one: its answers cannot be trusted.
      return grpc::Status(grpc::StatusCode::INTERNAL, e.what());
    }
    cached = response.cached();
    return status;
  }

  SolverResponse check(const Query &q, bool wantModel) {
    ExprContext *ctx = contextOf(q);
    if (!ctx) // no expression at all: `true`, with nothing to bind
      return {SatResult::Sat, {}, {}};

    v1::SolveRequest request;
    makeSolveRequest(q, wantModel, options.timeoutSeconds, requestIdBase | ++nextRequest,
                     request);
    const size_t n = replicas.size();
    const size_t first = size_t(queryRouteHash(q) % n);
    const Clock::time_point now = Clock::now();
    std::string failures;
    for (size_t k = 0; k < n; ++k) {
      Replica &r = replicas[(first + k) % n];
      if (r.backoff != 0 && now < r.skipUntil)
        continue;
      SolverResponse answer;
      bool cached = false;
      grpc::Status status = ask(r, request, *ctx, answer, cached);
      if (status.ok()) {
        markAnswered(r);
        if (cached)
          ++stats.answered;
        if (answer.result == SatResult::Sat && wantModel)
          completeModel(answer.model, q);
        return answer;
      }
      if (status.error_code() == grpc::StatusCode::CANCELLED && wasInterrupted())
        return SolverResponse::unknown("interrupted");
      failures += (failures.empty() ? "" : "; ") + r.address + ": " + status.error_message();
      if (!replicaFailure(status.error_code())) {
        // Every replica would refuse this query the same way; only this process can answer it.
        spdlog::warn("solver pool refused a query ({}); answering it in-process",
                     status.error_message());
        break;
      }
      markFailed(r, status);
    }
    if (!warnedFallback) {
      spdlog::warn("no solver pool replica answered ({}); answering in-process with {} until "
                   "one does",
                   failures.empty() ? "all were failing recently" : failures,
                   coreName(options.fallback));
      warnedFallback = true;
    }
    ++fallbackQueries;
    return fallbackSolver().check(q, wantModel);
  }
};

RemoteSolver::RemoteSolver(RemoteSolverOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

RemoteSolver::~RemoteSolver() {
  if (impl_->fallbackQueries)
    spdlog::info("{} of {} solver pool queries were answered in-process", impl_->fallbackQueries,
                 impl_->stats.queries);
}

SolverResponse RemoteSolver::check(const Query &q, bool wantModel) {
  ScopedSolverTimer timer(impl_->stats);
  ++impl_->stats.queries;
  SolverResponse r = impl_->check(q, wantModel);
  if (r.result == SatResult::Unknown)
    ++impl_->stats.unknown;
  return r;
}

std::string RemoteSolver::name() const {
  std::string s = "pool(";
  for (size_t i = 0; i < impl_->replicas.size(); ++i)
    s += (i ? "," : "") + impl_->replicas[i].address;
  return s + ")";
}

void RemoteSolver::collectStats(std::vector<SolverLayerStats> &out) const {
  out.push_back(impl_->stats);
}

void RemoteSolver::setTimeout(double seconds) {
  impl_->options.timeoutSeconds = seconds;
  if (impl_->fallback)
    impl_->fallback->setTimeout(seconds);
}

void RemoteSolver::interrupt() { impl_->interrupt(); }

uint64_t RemoteSolver::fallbackQueries() const { return impl_->fallbackQueries; }

} // namespace cairn
