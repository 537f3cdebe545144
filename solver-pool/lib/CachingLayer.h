// What the caching layers have in common (private to solver-pool/lib): the layer's name and
// statistics, the timing and counting of every query, and the forwarding of misses, so each
// cache writes only how it looks an answer up and what it keeps.
#pragma once

#include "ConstraintSetKey.h"
#include "cairn/solver/Solver.h"

#include <optional>
#include <string>

namespace cairn {

class CachingLayer : public SolverLayer {
public:
  std::string name() const override { return stats_.layer + "(" + next_->name() + ")"; }

  // Only misses are clocked (in forward()): a hit takes about as long as reading the clock
  // twice, and exploration asks millions of them.
  SolverResponse check(const Query &q, bool wantModel) final {
    ++stats_.queries;
    return answer(q, wantModel);
  }

protected:
  CachingLayer(std::unique_ptr<Solver> next, std::string layer) : SolverLayer(std::move(next)) {
    stats_.layer = std::move(layer);
  }

  // Runs after the query is counted.
  virtual SolverResponse answer(const Query &q, bool wantModel) = 0;

  // A miss: the next layer answers, and its Unknown counts as this layer's too.
  SolverResponse forward(const Query &q, bool wantModel) {
    ScopedSolverTimer timer(stats_);
    SolverResponse r = next_->check(q, wantModel);
    if (r.result == SatResult::Unknown)
      ++stats_.unknown;
    return r;
  }
};

// A cache keyed by the query's constraint set. `Store` is what the cache keeps:
//   std::optional<SolverResponse> lookup(const ConstraintSetKey &, const Query &, bool wantModel)
//     an answer for the query, or nullopt to ask the next layer;
//   void insert(ConstraintSetKey, const SolverResponse &)   a decided answer of the next layer;
//   static constexpr bool kAsksModel    every miss asks for a model, wanted or not (a model
//     kept serves later queries), and one that was not wanted is not handed on.
template <class Store> class ConstraintSetCache final : public CachingLayer {
public:
  ConstraintSetCache(std::unique_ptr<Solver> next, std::string layer, size_t maxEntries)
      : CachingLayer(std::move(next), std::move(layer)), store_(maxEntries) {}

private:
  SolverResponse answer(const Query &q, bool wantModel) override {
    ConstraintSetKey key = ConstraintSetKey::of(q);
    if (std::optional<SolverResponse> hit = store_.lookup(key, q, wantModel)) {
      ++stats_.answered;
      return std::move(*hit);
    }
    const bool askModel = wantModel || Store::kAsksModel;
    SolverResponse r = forward(q, askModel);
    if (r.result == SatResult::Unknown)
      return r;
    store_.insert(std::move(key), r);
    if (askModel && !wantModel)
      r.model = Assignment();
    return r;
  }

  Store store_;
};

} // namespace cairn
