#include "cairn/engine/Searcher.h"

#include "cairn/engine/ExecutionState.h"

#include <algorithm>
#include <deque>
#include <random>

namespace cairn::engine {

bool parseSearchStrategy(std::string_view name, SearchStrategy &out) {
  if (name == "dfs") out = SearchStrategy::Dfs;
  else if (name == "bfs") out = SearchStrategy::Bfs;
  else if (name == "random-state") out = SearchStrategy::RandomState;
  else if (name == "random-path") out = SearchStrategy::RandomPath;
  else if (name == "covnew") out = SearchStrategy::CovNew;
  else return false;
  return true;
}

namespace {

// The states in the order they were added; the strategies differ in which end they take.
class ListSearcher : public Searcher {
public:
  void add(ExecutionState *s) override { states_.push_back(s); }
  void remove(ExecutionState *s) override {
    auto it = std::find(states_.rbegin(), states_.rend(), s); // usually the newest
    if (it != states_.rend())
      states_.erase(std::next(it).base());
  }
  bool empty() const override { return states_.empty(); }

protected:
  std::deque<ExecutionState *> states_;
};

class DfsSearcher final : public ListSearcher {
public:
  ExecutionState &select() override { return *states_.back(); }
};

class BfsSearcher final : public ListSearcher {
public:
  // The oldest state runs until it forks; its children go to the back.
  ExecutionState &select() override { return *states_.front(); }
};

class RandomStateSearcher final : public ListSearcher {
public:
  explicit RandomStateSearcher(uint64_t seed) : rng_(seed) {}
  ExecutionState &select() override {
    if (!current_ || std::find(states_.begin(), states_.end(), current_) == states_.end() ||
        ++steps_ % kBurst == 0)
      current_ = states_[rng_() % states_.size()];
    return *current_;
  }

private:
  static constexpr uint64_t kBurst = 256; // instructions before another pick
  std::mt19937_64 rng_;
  ExecutionState *current_ = nullptr;
  uint64_t steps_ = 0;
};

} // namespace

std::unique_ptr<Searcher> createSearcher(SearchStrategy strategy, uint64_t seed) {
  switch (strategy) {
  case SearchStrategy::Dfs: return std::make_unique<DfsSearcher>();
  case SearchStrategy::Bfs: return std::make_unique<BfsSearcher>();
  default: return std::make_unique<RandomStateSearcher>(seed);
  }
}

} // namespace cairn::engine
