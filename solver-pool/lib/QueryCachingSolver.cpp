// The query (branch) cache: remembers the answer to every decided query, keyed by its
// constraint set. Answers satisfiability questions only; a model request is answered here when
// the cached answer is unsat, and passed on otherwise.
#include "ConstraintSetKey.h"
#include "cairn/solver/SolverChain.h"

#include <unordered_map>

namespace cairn {

namespace {

class QueryCachingSolver final : public SolverLayer {
public:
  QueryCachingSolver(std::unique_ptr<Solver> next, size_t maxEntries)
      : SolverLayer(std::move(next)), maxEntries_(maxEntries) {
    stats_.layer = "query-cache";
  }
  std::string name() const override { return "query-cache(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ScopedSolverTimer timer(stats_);
    ++stats_.queries;
    ConstraintSetKey key = ConstraintSetKey::of(q);
    auto it = cache_.find(key);
    if (it != cache_.end() && (!wantModel || it->second == SatResult::Unsat)) {
      ++stats_.answered;
      return {it->second, {}, {}};
    }
    SolverResponse r = next_->check(q, wantModel);
    if (r.result == SatResult::Unknown) {
      ++stats_.unknown;
      return r;
    }
    if (cache_.size() >= maxEntries_)
      cache_.clear();
    cache_.insert_or_assign(std::move(key), r.result);
    return r;
  }

private:
  size_t maxEntries_;
  std::unordered_map<ConstraintSetKey, SatResult, ConstraintSetKeyHash> cache_;
};

} // namespace

std::unique_ptr<Solver> createQueryCachingSolver(std::unique_ptr<Solver> next, size_t maxEntries) {
  return std::make_unique<QueryCachingSolver>(std::move(next), maxEntries);
}

} // namespace cairn
