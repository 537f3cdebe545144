// The query (branch) cache: remembers the answer to every decided query, keyed by its
// constraint set. Answers satisfiability questions only; a model request is answered here when
// the cached answer is unsat, and passed on otherwise.
#include "CachingLayer.h"
#include "cairn/solver/SolverChain.h"

#include <unordered_map>

namespace cairn {

namespace {

class QueryCacheStore {
public:
  static constexpr bool kAsksModel = false;

  explicit QueryCacheStore(size_t maxEntries) : maxEntries_(maxEntries) {}

  std::optional<SolverResponse> lookup(const ConstraintSetKey &key, const Query &, bool wantModel) const {
    auto it = cache_.find(key);
    if (it != cache_.end() && (!wantModel || it->second == SatResult::Unsat))
      return SolverResponse{it->second, {}, {}};
    return std::nullopt;
  }

  void insert(ConstraintSetKey key, const SolverResponse &r) {
    if (cache_.size() >= maxEntries_)
      cache_.clear();
    cache_.insert_or_assign(std::move(key), r.result);
  }

private:
  size_t maxEntries_;
  std::unordered_map<ConstraintSetKey, SatResult, ConstraintSetKeyHash> cache_;
};

} // namespace

std::unique_ptr<Solver> createQueryCachingSolver(std::unique_ptr<Solver> next, size_t maxEntries) {
  return std::make_unique<ConstraintSetCache<QueryCacheStore>>(std::move(next), "query-cache", maxEntries);
}

} // namespace cairn
