// Queries on their way to and inside the solver pool (cairn.v1.SolverPool): the request a
// client sends and the key the pool's shared cache files its answer under.
#pragma once

#include "cairn/solver/Solver.h"

#include <cstdint>
#include <string>

namespace cairn {
namespace v1 {
class Query;
class SolveRequest;
} // namespace v1

// Replaces `out` with a request for `query`. Constraints go in a canonical order (exprLess,
// which orders by structural hash) without repeats or `true`s, so that the same question asked
// from any context, with its constraints in any order, has the same bytes and so the same
// cache key in the pool.
void makeSolveRequest(const Query &query, bool wantModel, double timeoutSeconds,
                      uint64_t requestId, v1::SolveRequest &out);

// A hash of the question `query` asks that does not depend on its context or its constraints'
// order: where a client sends it, so that repeats reach the replica that cached the answer.
uint64_t queryRouteHash(const Query &query);

// The shared cache's key: the query's bytes without want_model and timeout_s, which change how
// an answer is delivered, not what it is, and without the symbolic form (the concrete query is
// the question). `query` is left as it was.
std::string poolCacheKey(v1::Query &query);

} // namespace cairn
