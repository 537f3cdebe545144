// The solver pool against in-process solving on a repeated workload: several workers, one after
// the other, each a fresh engine (its own context and solver chain) exploring the same program,
// as when a job's work items are spread over workers or handed out again. In-process, every
// worker pays for every solver call; through the pool, the first worker's answers are in the
// pool's shared cache for the others. Prints a table; not a timed test.
//
//   cairn-solver-pool --listen 127.0.0.1:7471 &
//   cairn-bench-pool --pool 127.0.0.1:7471 [--token-file cairn-solver-pool.token] [--workers W] [--depth D]
#include "ExploreWorkload.h"

#include "cairn/solver/RemoteSolver.h"
#include "cairn/support/TokenFile.h"
#include "cairn/v1/solver_pool.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace cairn;
using namespace cairn::bench;

namespace {

std::string poolToken; // --token-file's: what the pool accepts

struct PoolCounters {
  uint64_t lookups = 0, hits = 0, solved = 0;
};

PoolCounters poolCounters(const std::string &endpoint) {
  auto stub = v1::SolverPool::NewStub(
      grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials()));
  grpc::ClientContext call;
  call.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  if (!poolToken.empty())
    call.AddMetadata("authorization", "Bearer " + poolToken);
  v1::StatsResponse s;
  grpc::Status status = stub->Stats(&call, v1::StatsRequest{}, &s);
  if (!status.ok()) {
    std::fprintf(stderr, "cairn-bench-pool: Stats on %s failed: %s\n", endpoint.c_str(),
                 status.error_message().c_str());
    std::exit(1);
  }
  return {s.cache().lookups(), s.cache().hits(), s.solved()};
}

struct Row {
  const char *label = "";
  uint64_t questions = 0, coreQueries = 0;
  double seconds = 0;
  bool pool = false;
  PoolCounters poolDelta;
};

// Runs `workers` fresh engines one after the other, each with a solver from `make`.
Row run(const char *label, unsigned workers, unsigned depth,
        const std::function<std::unique_ptr<Solver>()> &make, const std::string *endpoint) {
  Row row;
  row.label = label;
  PoolCounters before = endpoint ? poolCounters(*endpoint) : PoolCounters{};
  for (unsigned w = 0; w < workers; ++w) {
    ExprContext ctx; // declared first: the solver's caches hold its expressions
    std::unique_ptr<Solver> solver = make();
    WorkloadResult r = explore(ctx, *solver, depth);
    row.questions += r.queries;
    row.seconds += r.seconds;
    row.coreQueries += r.layers.back().queries;
  }
  if (endpoint) {
    PoolCounters after = poolCounters(*endpoint);
    row.pool = true;
    row.poolDelta = {after.lookups - before.lookups, after.hits - before.hits,
                     after.solved - before.solved};
  }
  return row;
}

} // namespace

int main(int argc, char **argv) {
  std::string endpoint;
  unsigned workers = 4, depth = 6;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--pool"))
      endpoint = argv[i + 1];
    else if (!std::strcmp(argv[i], "--token-file"))
      poolToken = tokenFromFile(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--workers"))
      workers = unsigned(std::stoul(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--depth"))
      depth = unsigned(std::stoul(argv[i + 1]));
  }
  if (endpoint.empty()) {
    std::fprintf(stderr, "usage: cairn-bench-pool --pool HOST:PORT [--token-file FILE] [--workers W] [--depth D]\n");
    return 2;
  }

  auto chain = [](bool layers, std::vector<std::string> pool) {
    return [layers, pool] {
      SolverChainOptions o;
      o.independence = o.queryCache = o.cexCache = layers;
      o.poolEndpoints = pool;
      o.poolToken = poolToken;
      o.timeoutSeconds = 30;
      return createSolverChain(o);
    };
  };
  // The rows share one pool: the chain's sliced questions that equal bare ones (those of the
  // shallow paths) find the answers the "pool" row left. Against a fresh pool, the first pool
  // row's first worker meets a cold cache.
  std::vector<Row> rows;
  rows.push_back(run("in-process z3", workers, depth, chain(false, {}), nullptr));
  rows.push_back(run("pool", workers, depth, chain(false, {endpoint}), &endpoint));
  rows.push_back(run("in-process chain", workers, depth, chain(true, {}), nullptr));
  rows.push_back(run("chain + pool", workers, depth, chain(true, {endpoint}), &endpoint));

  std::printf("== %u workers in turn, exploration depth %u, z3 ==\n", workers, depth);
  std::printf("%-18s %10s %10s %9s %12s %12s\n", "solver", "questions", "core q.", "time (s)",
              "questions/s", "pool hits");
  for (const Row &r : rows) {
    char hits[32] = "-";
    if (r.pool)
      std::snprintf(hits, sizeof hits, "%.1f%%",
                    r.poolDelta.lookups ? 100.0 * double(r.poolDelta.hits) /
                                              double(r.poolDelta.lookups)
                                        : 0.0);
    std::printf("%-18s %10llu %10llu %9.3f %12.0f %12s\n", r.label,
                (unsigned long long)r.questions, (unsigned long long)r.coreQueries, r.seconds,
                double(r.questions) / std::max(1e-9, r.seconds), hits);
  }
  std::printf("\nspeed-up of the pool over in-process: %.2fx (core only), %.2fx (full chain)\n",
              rows[0].seconds / std::max(1e-9, rows[1].seconds),
              rows[2].seconds / std::max(1e-9, rows[3].seconds));
  return 0;
}
