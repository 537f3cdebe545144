// One lane of the solver pool: an expression context and the solver chain built in it, used by
// one thread at a time. Queries from any client are rebuilt in the lane's context; the context
// starts afresh (solver first, then context) when a query declares a symbol differently than an
// earlier one did, or when it has collected too many symbols.
#pragma once

#include "cairn/solver/SolverChain.h"

#include <mutex>

namespace cairn {
namespace v1 {
class ExprDag;
class Query;
class QueryResponse;
} // namespace v1

namespace pool {

struct LaneOptions {
  CoreSolverKind core = CoreSolverKind::Z3;
  std::optional<CoreSolverKind> floatCore; // SolverChainOptions::floatCore
  bool isolateCore = false; // the core in a child process: a solver crash loses one answer
  // The address-aware cache in front of the lane's chain, keyed on the symbolic forms clients
  // send (relocatable memory model): answers a query renamed from one any client asked before.
  bool addressCache = false;
  // The typed array solver above the core: queries carry the element widths their clients
  // inferred (cairn.v1.Query.array_types).
  ArraySolverOptions arrays;
  size_t maxSymbols = size_t(1) << 16;
};

class Lane {
public:
  explicit Lane(const LaneOptions &options);
  ~Lane();
  Lane(const Lane &) = delete;
  Lane &operator=(const Lane &) = delete;

  // Decides `query` within `timeoutSeconds` (0: none) into `out`, a sat answer always with its
  // model (restricted to the query's symbols). Throws std::invalid_argument for a malformed
  // query.
  void solve(const v1::Query &query, double timeoutSeconds, v1::QueryResponse &out);

  // The chain's statistics since the lane started, across fresh starts. Thread-safe.
  std::vector<SolverLayerStats> stats() const;
  uint64_t resets() const;

private:
  void start();
  void reset();
  bool conflicts(const v1::ExprDag &dag) const;
  void publishStats();

  LaneOptions options_;
  std::unique_ptr<ExprContext> ctx_;
  std::unique_ptr<Solver> solver_; // built in *ctx_: destroyed first

  mutable std::mutex statsMutex_;
  std::vector<SolverLayerStats> retired_;   // of the chains that were reset
  std::vector<SolverLayerStats> published_; // retired_ plus the current chain
  uint64_t resets_ = 0;
};

// Adds `from` into `into`, layer by layer (by name, keeping into's order).
void addLayerStats(std::vector<SolverLayerStats> &into, const std::vector<SolverLayerStats> &from);

} // namespace pool
} // namespace cairn
