// The counterexample cache: remembers each decided constraint set with its model (or unsat),
// and answers a new set S without a solver when
//  - S was seen before;
//  - a cached unsat set is a subset of S (S is unsat too);
//  - a cached sat set is a superset of S (its model satisfies S);
//  - the model of a cached subset, or of a recent answer, happens to satisfy S (checked by
//    evaluation).
// Every miss asks the next solver for a model, so that later queries can reuse it.
#include "CachingLayer.h"
#include "cairn/solver/SolverChain.h"

#include <deque>
#include <stdexcept>
#include <unordered_map>

namespace cairn {

namespace {

class CexCacheStore {
  struct Entry {
    ConstraintSetKey key;
    SatResult result;
    Assignment model;
  };

  static constexpr size_t kMaxScan = 512;   // entries examined per subset/superset search
  static constexpr size_t kMaxEvaluate = 16; // models tried by evaluation per query
  static constexpr size_t kRecent = 8;

public:
  static constexpr bool kAsksModel = true;

  explicit CexCacheStore(size_t maxEntries) : maxEntries_(maxEntries) {}

  std::optional<SolverResponse> lookup(const ConstraintSetKey &key, const Query &q, bool wantModel) {
    const Entry *hit = find(key);
    if (!hit)
      return std::nullopt;
    SolverResponse r{hit->result, {}, {}};
    if (wantModel && r.result == SatResult::Sat) {
      r.model = hit->model;
      completeModel(r.model, q);
    }
    return r;
  }

  uint32_t insert(ConstraintSetKey key, const SolverResponse &r) {
    if (entries_.size() >= maxEntries_) {
      entries_.clear();
      byKey_.clear();
      postings_.clear();
      recent_.clear();
    }
    uint32_t id = uint32_t(entries_.size());
    for (const ExprRef &e : key.items)
      postings_[e.get()].push_back(id);
    byKey_.emplace(key, id);
    entries_.push_back({std::move(key), r.result, r.model});
    if (r.result == SatResult::Sat) {
      recent_.push_front(id);
      if (recent_.size() > kRecent)
        recent_.pop_back();
    }
    return id;
  }

private:
  static bool satisfies(const Assignment &model, const ConstraintSetKey &key) {
    try {
      for (const ExprRef &e : key.items)
        if (!evaluatesTrue(e.get(), model))
          return false;
      return true;
    } catch (const std::domain_error &) { // a quantifier too wide to enumerate
      return false;
    }
  }

  const Entry *find(const ConstraintSetKey &key) {
    if (auto it = byKey_.find(key); it != byKey_.end())
      return &entries_[it->second];
    if (key.items.empty())
      return &emptySat_;

    // A cached sat superset: start from the item with the fewest postings.
    const std::vector<uint32_t> *shortest = nullptr;
    for (const ExprRef &e : key.items) {
      auto it = postings_.find(e.get());
      if (it == postings_.end()) {
        shortest = nullptr;
        break;
      }
      if (!shortest || it->second.size() < shortest->size())
        shortest = &it->second;
    }
    size_t scanned = 0;
    if (shortest)
      for (auto id = shortest->rbegin(); id != shortest->rend() && scanned < kMaxScan;
           ++id, ++scanned) {
        const Entry &e = entries_[*id];
        if (e.result == SatResult::Sat && e.key.includes(key))
          return &e;
      }

    // A cached subset: unsat decides; a sat one's model may satisfy the whole set.
    size_t evaluated = 0;
    scanned = 0;
    for (const ExprRef &item : key.items) {
      auto it = postings_.find(item.get());
      if (it == postings_.end())
        continue;
      for (auto id = it->second.rbegin(); id != it->second.rend() && scanned < kMaxScan;
           ++id, ++scanned) {
        const Entry &e = entries_[*id];
        if (e.key.items.size() > key.items.size() || !key.includes(e.key))
          continue;
        if (e.result == SatResult::Unsat)
          return &e;
        if (evaluated < kMaxEvaluate) {
          ++evaluated;
          if (satisfies(e.model, key))
            return remember(key, e.model);
        }
      }
    }
    for (uint32_t id : recent_)
      if (satisfies(entries_[id].model, key))
        return remember(key, entries_[id].model);
    return nullptr;
  }

  // A model found by evaluation answers this key from now on.
  const Entry *remember(const ConstraintSetKey &key, const Assignment &model) {
    SolverResponse r{SatResult::Sat, {}, model};
    return &entries_[insert(key, r)];
  }

  size_t maxEntries_;
  std::deque<Entry> entries_; // stable addresses while growing
  std::unordered_map<ConstraintSetKey, uint32_t, ConstraintSetKeyHash> byKey_;
  // Keyed by node; the entries' keys keep the nodes alive.
  std::unordered_map<const Expr *, std::vector<uint32_t>> postings_;
  std::deque<uint32_t> recent_;
  const Entry emptySat_{{}, SatResult::Sat, {}};
};

} // namespace

std::unique_ptr<Solver> createCexCachingSolver(std::unique_ptr<Solver> next, size_t maxEntries) {
  return std::make_unique<ConstraintSetCache<CexCacheStore>>(std::move(next), "cex-cache", maxEntries);
}

} // namespace cairn
