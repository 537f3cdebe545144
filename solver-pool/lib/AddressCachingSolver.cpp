// The address-aware query cache (relocatable memory model): answers a query whose symbolic
// form equals that of a query decided before up to a one-to-one renaming of symbolic bases
// between objects of equal sizes. Such queries are equisatisfiable when the program is
// well-behaved with addresses, though their concrete forms differ in every address constant,
// which is all the ordinary caches see.
//
// The key is the symbolic form of the query after slicing (slicing itself runs on the concrete
// form, above); misses and layout-dependent queries go on in their concrete form. A model is
// reused as it is: the renaming touches bases only, and they are substituted away before
// solving, so the inputs' values of one query satisfy the other (checked by evaluation before
// it is handed out).
#include "CachingLayer.h"
#include "cairn/expr/AddressRenaming.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace cairn {

namespace {

// A symbolic form as a set: sorted by rename hash (stable, so ties keep the path's order),
// without `true` and repeats. Renaming cannot change the order but among equal rename hashes.
struct RenamingKey {
  std::vector<ExprRef> items;
  uint64_t hash = 0;
  bool mentionsAddress = false;

  static RenamingKey of(const QueryForm &form) {
    RenamingKey k;
    std::unordered_set<const Expr *> seen;
    auto add = [&](const ExprRef &e) {
      if (e && !e->isTrue() && seen.insert(e.get()).second) {
        k.items.push_back(e);
        k.mentionsAddress |= e->mentionsAddress();
      }
    };
    for (const ExprRef &c : form.constraints)
      add(c);
    add(form.expr);
    std::stable_sort(k.items.begin(), k.items.end(), [](const ExprRef &a, const ExprRef &b) {
      return a->renameHash() < b->renameHash();
    });
    uint64_t h = 0x6a09e667f3bcc909ULL;
    for (const ExprRef &e : k.items)
      h = (h ^ e->renameHash()) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    k.hash = h;
    return k;
  }
};

bool satisfiesAll(const Query &q, const Assignment &model) {
  try {
    for (const ExprRef &c : q.constraints)
      if (!evaluatesTrue(c.get(), model))
        return false;
    return !q.expr || evaluatesTrue(q.expr.get(), model);
  } catch (const std::domain_error &) { // a quantifier too wide to enumerate
    return false;
  }
}

class AddressCachingSolver final : public CachingLayer {
public:
  AddressCachingSolver(std::unique_ptr<Solver> next, AddressCacheOptions options)
      : CachingLayer(std::move(next), "address-cache"), options_(options) {}

  void collectStats(std::vector<SolverLayerStats> &out) const override {
    SolverLayerStats s = stats_;
    s.counters = {{"address_dependent", addressDependent_},
                  {"layout_dependent", layoutDependent_},
                  {"model_hits", modelHits_},
                  {"entries", entries_.size()},
                  {"validated", validated_},
                  {"saved_solver_calls", savedCalls_},
                  {"mismatches", mismatches_}};
    out.push_back(std::move(s));
    next_->collectStats(out);
  }

private:
  SolverResponse answer(const Query &q, bool wantModel) override {
    if (!q.original)
      return forward(q, wantModel);
    if (q.original->concreteOnly) {
      ++layoutDependent_;
      return forward(q, wantModel);
    }
    RenamingKey key = RenamingKey::of(*q.original);
    if (!key.mentionsAddress) // the ordinary caches see the same query: theirs to answer
      return forward(q, wantModel);
    ++addressDependent_;
    Entry *hit = lookup(key);
    if (hit) {
      SolverResponse cached{hit->result, {}, {}};
      bool usable = !wantModel || hit->result == SatResult::Unsat;
      if (!usable && hit->hasModel && options_.reuseModels) {
        cached.model = hit->model;
        completeModel(cached.model, q);
        usable = satisfiesAll(q, cached.model);
        modelHits_ += usable;
      }
      if (usable) {
        ++stats_.answered;
        return options_.validate ? validate(q, wantModel, cached) : cached;
      }
    }
    SolverResponse r = forward(q, wantModel);
    if (r.result == SatResult::Unknown)
      return r;
    if (hit) { // decided before, but without the model asked for now (wantModel is set)
      if (r.result == SatResult::Sat) {
        hit->model = r.model;
        hit->hasModel = true;
      }
      return r;
    }
    if (entries_.size() >= options_.maxEntries) {
      entries_.clear();
      buckets_.clear();
    }
    const bool hasModel = wantModel && r.result == SatResult::Sat;
    buckets_.emplace(key.hash, entries_.size());
    entries_.push_back({std::move(key.items), r.result, hasModel ? r.model : Assignment(), hasModel});
    return r;
  }

  struct Entry {
    std::vector<ExprRef> items; // the key, which keeps its nodes alive
    SatResult result;
    Assignment model;
    bool hasModel;
  };

  static constexpr size_t kMaxCandidates = 64; // entries compared per lookup

  Entry *lookup(const RenamingKey &key) {
    auto [first, last] = buckets_.equal_range(key.hash);
    size_t compared = 0;
    for (auto it = first; it != last && compared < kMaxCandidates; ++it) {
      Entry &e = entries_[it->second];
      if (e.items.size() != key.items.size())
        continue;
      ++compared;
      AddressRenaming renaming; // one renaming for the whole query
      bool same = true;
      for (size_t i = 0; same && i < key.items.size(); ++i)
        same = renaming.match(e.items[i].get(), key.items[i].get());
      if (same)
        return &e;
    }
    return nullptr;
  }

  // Validation mode: the next layer answers too; its answer is the one returned, and a
  // different one is an error in the log and in the statistics.
  SolverResponse validate(const Query &q, bool wantModel, const SolverResponse &cached) {
    ++validated_;
    const uint64_t coreBefore = coreQueries();
    SolverResponse truth = forward(q, wantModel);
    savedCalls_ += coreQueries() > coreBefore; // the ordinary caches could not answer it
    if (truth.result != SatResult::Unknown && truth.result != cached.result) {
      ++mismatches_;
      std::string text;
      for (const ExprRef &c : q.original->constraints)
        text += "\n  " + describe(c.get());
      spdlog::error("address-aware cache: answered {} but the solver says {} for (symbolic form):{}\n  query: {}",
                    satResultName(cached.result), satResultName(truth.result), text,
                    q.original->expr ? describe(q.original->expr.get()) : "true");
    }
    return truth;
  }

  // Queries that reached the core solver (the last layer) so far.
  uint64_t coreQueries() const {
    std::vector<SolverLayerStats> below;
    next_->collectStats(below);
    return below.empty() ? 0 : below.back().queries;
  }

  AddressCacheOptions options_;
  std::vector<Entry> entries_;
  std::unordered_multimap<uint64_t, size_t> buckets_; // key hash -> index into entries_
  uint64_t addressDependent_ = 0, layoutDependent_ = 0, modelHits_ = 0;
  uint64_t validated_ = 0, mismatches_ = 0, savedCalls_ = 0; // saved: in validation mode
};

} // namespace

std::unique_ptr<Solver> createAddressCachingSolver(std::unique_ptr<Solver> next,
                                                   AddressCacheOptions options) {
  return std::make_unique<AddressCachingSolver>(std::move(next), options);
}

} // namespace cairn
