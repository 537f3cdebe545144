// Solver queries and responses on the wire (cairn.v1.Query and cairn.v1.QueryResponse).
//
// A query travels as one ExprDag holding its constraints, expression and terms. A response's
// model names its symbols, so it is read back in any context that declares them: the asking
// context, typically, whose symbols the query carried. Malformed messages raise
// std::invalid_argument.
#pragma once

#include "cairn/solver/Solver.h"

namespace cairn {
namespace v1 {
class Query;
class QueryResponse;
} // namespace v1

// Replaces `out` with `query`, the model request and the time limit (seconds, 0: none), and,
// with `withAddressForm`, the query's built form (QueryForm) when it has one (for the solver pool's
// address-aware cache; solvers that ignore it need not pay for its bytes).
void serializeQuery(const Query &query, bool wantModel, double timeoutSeconds, v1::Query &out,
                    bool withAddressForm = false);

// Rebuilds a query in `ctx` (see deserializeExprs for how symbols are matched). Constraints and
// the expression must be width-1 bit-vectors (checked after building: a query rejected for that
// alone may have declared its symbols in `ctx`); an absent expression gives a null Query::expr.
// The time limit is read from the message directly (timeout_s). A symbolic form in the message
// becomes Query::symbolic (its constraints as the message lists them).
Query deserializeQuery(const v1::Query &message, ExprContext &ctx, bool *wantModel = nullptr);

// Replaces `out` with `response`; the model's bindings are written by symbol name, sorted by
// name so equal responses give equal bytes.
void serializeResponse(const SolverResponse &response, v1::QueryResponse &out);

// Reads a response, resolving model symbols with ctx.findSymbol. Unknown names, bindings of
// the wrong kind (scalar for array or back), values too wide for their symbol and symbols bound
// twice are errors.
SolverResponse deserializeResponse(const v1::QueryResponse &message, ExprContext &ctx);

} // namespace cairn
