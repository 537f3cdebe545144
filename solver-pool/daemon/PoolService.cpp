#include "PoolService.h"

#include "cairn/auth/BearerTokens.h"
#include "cairn/solver/PoolProtocol.h"

#include <grpcpp/server_builder.h>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace cairn::pool {

namespace {

using Clock = std::chrono::steady_clock;

bool readRequest(const grpc::ByteBuffer &bytes, v1::SolveRequest &out) {
  std::vector<grpc::Slice> slices;
  if (!bytes.Dump(&slices).ok())
    return false;
  std::string joined;
  for (const grpc::Slice &s : slices)
    joined.append(reinterpret_cast<const char *>(s.begin()), s.size());
  return out.ParseFromString(joined);
}

void writeResponse(const v1::SolveResponse &message, grpc::ByteBuffer &out) {
  grpc::Slice slice(message.SerializeAsString());
  out = grpc::ByteBuffer(&slice, 1);
}

const char *resultName(const v1::QueryResponse &r) {
  switch (r.result()) {
  case v1::QueryResponse::RESULT_SAT: return "sat";
  case v1::QueryResponse::RESULT_UNSAT: return "unsat";
  default: return "unknown";
  }
}

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

// One Solve call: requested from the queue, answered from the cache or by a lane, finished. A
// started call comes back through the queue twice, finished and done (the client gone, or the
// call over): it is deleted after both.
struct PoolService::Call {
  enum class Step { Requested, Finished, Done };
  struct Tag {
    Call *call;
    Step step;
  };

  Call() { context.AsyncNotifyWhenDone(&done); }

  grpc::ServerContext context;
  grpc::ByteBuffer requestBytes;
  grpc::ServerAsyncResponseWriter<grpc::ByteBuffer> responder{&context};
  Tag requested{this, Step::Requested}, finished{this, Step::Finished}, done{this, Step::Done};
  std::atomic<int> pending{2};        // of finished and done
  std::atomic<bool> cancelled{false}; // done before it was answered: nobody waits for it
  v1::SolveRequest request;
  std::string key;
  bool wantModel = false;
  Clock::time_point received;

  // The call belongs to the queue once finished: nothing may touch it afterwards.
  void finish(const grpc::Status &status) { responder.FinishWithError(status, &finished); }
  void answer(v1::SolveResponse &message) {
    message.set_request_id(request.request_id());
    grpc::ByteBuffer bytes;
    writeResponse(message, bytes);
    spdlog::debug("request {:#x}: {} ({}, {:.3f} s)", request.request_id(),
                  resultName(message.response()), message.cached() ? "cache" : "lane",
                  secondsSince(received));
    responder.Finish(bytes, grpc::Status::OK, &finished);
  }
};

PoolService::PoolService(const PoolServiceOptions &options)
    : options_(options), cache_(options.cacheBytes), lanes_(options.lanes, options.lane) {}

void PoolService::registerWith(grpc::ServerBuilder &builder) {
  builder.RegisterService(this);
  queue_ = builder.AddCompletionQueue();
}

void PoolService::start() {
  // Cache hits are answered on these threads, so as many as there are cores.
  const size_t threads = std::max(2u, std::thread::hardware_concurrency());
  for (size_t i = 0; i < threads; ++i)
    requestCall();
  for (size_t i = 0; i < threads; ++i)
    queueThreads_.emplace_back([this] { serveQueue(); });
}

void PoolService::join() {
  lanes_.join();
  {
    std::lock_guard lock(queueMutex_);
    queueClosed_ = true;
    if (queue_)
      queue_->Shutdown();
  }
  for (std::thread &t : queueThreads_)
    t.join();
  queueThreads_.clear();
}

// Keeps a call requested, so that gRPC has somewhere to put the next one that arrives.
void PoolService::requestCall() {
  std::lock_guard lock(queueMutex_);
  if (queueClosed_)
    return;
  Call *call = new Call;
  RequestSolve(&call->context, &call->requestBytes, &call->responder, queue_.get(), queue_.get(),
               &call->requested);
}

void PoolService::serveQueue() {
  void *tag = nullptr;
  bool ok = false;
  while (queue_->Next(&tag, &ok)) {
    const Call::Tag &t = *static_cast<Call::Tag *>(tag);
    Call *call = t.call;
    if (t.step == Call::Step::Requested) {
      if (!ok) { // never started (shutting down): neither finished nor done will come
        delete call;
        continue;
      }
      requestCall();
      handle(call);
      continue;
    }
    if (t.step == Call::Step::Done && call->context.IsCancelled())
      call->cancelled = true;
    if (--call->pending == 0)
      delete call;
  }
}

void PoolService::handle(Call *call) {
  ++requests_;
  call->received = Clock::now();
  if (grpc::Status refused = authenticate(call->context); !refused.ok()) {
    call->finish(refused);
    return;
  }
  if (!readRequest(call->requestBytes, call->request)) {
    ++invalid_;
    spdlog::debug("unreadable request from {}", call->context.peer());
    call->finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                              "the request is not a cairn.v1.SolveRequest"));
    return;
  }
  call->requestBytes.Clear();
  call->wantModel = call->request.query().want_model();
  call->key = poolCacheKey(*call->request.mutable_query());
  v1::SolveResponse hit;
  if (cache_.lookup(call->key, call->wantModel, *hit.mutable_response())) {
    hit.set_cached(true);
    call->answer(hit);
    return;
  }
  lanes_.submit([this, call](Lane *lane) { solveOnLane(*call, lane); });
}

void PoolService::solveOnLane(Call &call, Lane *lane) {
  if (!lane) {
    call.finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "the solver pool replica is stopping"));
    return;
  }
  if (call.cancelled || call.context.deadline() <= std::chrono::system_clock::now()) {
    // the client went away, or its deadline passed, while the query waited
    call.finish(grpc::Status(grpc::StatusCode::CANCELLED, "the client no longer waits"));
    return;
  }
  v1::SolveResponse message;
  try {
    lane->solve(call.request.query(), timeLimit(call.request.query().timeout_s(), call.context),
                *message.mutable_response());
  } catch (const std::invalid_argument &e) {
    ++invalid_;
    spdlog::debug("request {:#x} rejected: {}", call.request.request_id(), e.what());
    call.finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, e.what()));
    return;
  } catch (const std::exception &e) {
    spdlog::error("request {:#x} failed: {}", call.request.request_id(), e.what());
    call.finish(grpc::Status(grpc::StatusCode::INTERNAL, e.what()));
    return;
  }
  ++solved_;
  cache_.insert(call.key, message.response(), true);
  if (!call.wantModel) {
    message.mutable_response()->clear_scalars();
    message.mutable_response()->clear_arrays();
  }
  call.answer(message);
}

double PoolService::timeLimit(double requested, const grpc::ServerContextBase &context) const {
  double limit = requested > 0 ? requested : 0;
  auto cap = [&](double c) {
    if (c > 0 && (limit == 0 || c < limit))
      limit = c;
  };
  cap(options_.maxTimeoutSeconds);
  // Solving past the client's deadline would answer nobody.
  const auto deadline = context.deadline();
  if (deadline != std::chrono::system_clock::time_point::max())
    cap(std::max(0.001, std::chrono::duration<double>(deadline -
                                                      std::chrono::system_clock::now()).count()));
  return limit;
}

grpc::ServerUnaryReactor *PoolService::Stats(grpc::CallbackServerContext *context,
                                             const v1::StatsRequest *, v1::StatsResponse *response) {
  grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
  grpc::Status status = authenticate(*context);
  if (status.ok())
    fillStats(*response);
  reactor->Finish(status);
  return reactor;
}

grpc::Status PoolService::authenticate(const grpc::ServerContextBase &context) const {
  return auth::checkBearerToken(context, options_.tokens,
                                "a valid solver pool token is required (authorization: Bearer TOKEN): give the "
                                "client the pool's token file (--solver-pool-token-file)");
}

void PoolService::fillStats(v1::StatsResponse &out) const {
  switch (options_.lane.core) {
  case CoreSolverKind::Z3: out.set_solver("z3"); break;
  case CoreSolverKind::Cvc5: out.set_solver("cvc5"); break;
  case CoreSolverKind::Portfolio: out.set_solver("portfolio"); break;
  }
  out.set_lanes(uint32_t(lanes_.size()));
  out.set_requests(requests_);
  out.set_invalid_requests(invalid_);
  out.set_solved(solved_);
  out.set_lane_resets(lanes_.resets());
  out.set_solving(uint32_t(lanes_.running()));
  out.set_queued(uint32_t(lanes_.queued()));
  out.set_uptime_s(secondsSince(started_));
  const SharedCacheStats c = cache_.stats();
  v1::CacheStats &cache = *out.mutable_cache();
  cache.set_lookups(c.lookups);
  cache.set_hits(c.hits);
  cache.set_hit_rate(c.lookups ? double(c.hits) / double(c.lookups) : 0);
  cache.set_entries(c.entries);
  cache.set_bytes(c.bytes);
  cache.set_capacity_bytes(c.capacityBytes);
  cache.set_evictions(c.evictions);
  v1::LayerStats &shared = *out.add_layers();
  shared.set_layer("shared-cache");
  shared.set_queries(c.lookups);
  shared.set_answered(c.hits);
  for (const SolverLayerStats &l : lanes_.stats()) {
    v1::LayerStats &m = *out.add_layers();
    m.set_layer(l.layer);
    m.set_queries(l.queries);
    m.set_answered(l.answered);
    m.set_unknown(l.unknown);
    m.set_seconds(l.seconds);
    for (const auto &[name, value] : l.counters)
      (*m.mutable_counters())[name] = value;
  }
}

void PoolService::stop() { lanes_.stop(); }

} // namespace cairn::pool
