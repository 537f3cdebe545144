#include "cairn/solver/PoolProtocol.h"

#include "cairn/solver/QuerySerialize.h"
#include "cairn/v1/solver_pool.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>

namespace cairn {

namespace {

std::vector<ExprRef> canonicalConstraints(const std::vector<ExprRef> &constraints) {
  std::vector<ExprRef> out;
  out.reserve(constraints.size());
  for (const ExprRef &c : constraints)
    if (!c->isTrue())
      out.push_back(c);
  std::sort(out.begin(), out.end(),
            [](const ExprRef &a, const ExprRef &b) { return exprLess(a.get(), b.get()); });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL; }

} // namespace

void makeSolveRequest(const Query &query, bool wantModel, double timeoutSeconds,
                      uint64_t requestId, v1::SolveRequest &out) {
  out.Clear();
  out.set_request_id(requestId);
  Query canonical(canonicalConstraints(query.constraints), query.expr, query.terms);
  canonical.original = query.original;
  canonical.arrayTypes = query.arrayTypes;
  serializeQuery(canonical, wantModel, timeoutSeconds, *out.mutable_query(), true);
}

uint64_t queryRouteHash(const Query &query) {
  uint64_t h = 0x5eed;
  for (const ExprRef &c : canonicalConstraints(query.constraints))
    h = mix(h, c->hash());
  h = mix(h, query.expr ? query.expr->hash() : 0);
  for (const ExprRef &t : query.terms)
    h = mix(h, t->hash());
  return h;
}

std::string poolCacheKey(v1::Query &query) {
  const bool wantModel = query.want_model();
  const double timeout = query.timeout_s();
  query.clear_want_model();
  query.clear_timeout_s();
  // The symbolic form does not change the question either (the concrete one is what the lanes
  // solve), so queries from layouts that agree on every address share an entry.
  v1::AddressForm *symbolic = query.has_symbolic() ? query.release_symbolic() : nullptr;
  std::string key;
  {
    // Deterministic: the key must not depend on how this process happens to order anything.
    google::protobuf::io::StringOutputStream stream(&key);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    query.SerializeToCodedStream(&coded);
  }
  query.set_want_model(wantModel);
  query.set_timeout_s(timeout);
  if (symbolic)
    query.set_allocated_symbolic(symbolic);
  return key;
}

} // namespace cairn
