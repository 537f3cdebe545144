#include "cairn/engine/Searcher.h"

#include "cairn/engine/ExecutionState.h"

#include <algorithm>
#include <deque>
#include <random>
#include <unordered_map>

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
  // The state removed is nearly always the one running: the newest under depth-first, the
  // oldest under breadth-first.
  void remove(ExecutionState *s) override {
    if (states_.empty())
      return;
    if (states_.back() == s) {
      states_.pop_back();
      return;
    }
    if (states_.front() == s) {
      states_.pop_front();
      return;
    }
    auto it = std::find(states_.rbegin(), states_.rend(), s);
    if (it != states_.rend())
      states_.erase(std::next(it).base());
  }
  // Both sides go to the back: breadth-first then sees siblings in order, and depth-first
  // keeps running the parent.
  void forked(ExecutionState *parent, ExecutionState *child) override {
    add(child);
    remove(parent);
    add(parent);
  }
  bool empty() const override { return states_.empty(); }
  void pickBefore(ExecutionState *first, ExecutionState *then) override {
    // Both were just forked: near the back.
    auto f = std::find(states_.rbegin(), states_.rend(), first), t = std::find(states_.rbegin(), states_.rend(), then);
    if (f == states_.rend() || t == states_.rend())
      return;
    const bool firstNearerBack = f < t;
    if (firstNearerBack != takesBack())
      std::iter_swap(f, t);
  }

protected:
  virtual bool takesBack() const = 0;
  std::deque<ExecutionState *> states_;
};

class DfsSearcher final : public ListSearcher {
public:
  ExecutionState &select() override { return *states_.back(); }

private:
  bool takesBack() const override { return true; }
};

class BfsSearcher final : public ListSearcher {
public:
  ExecutionState &select() override { return *states_.front(); }

private:
  bool takesBack() const override { return false; }
};

// Keeps running one state for a burst of instructions, then picks again; picking is the
// strategy. Bursts keep the cost of a pick off the per-instruction path.
class BurstSearcher : public Searcher {
public:
  static constexpr uint64_t kBurst = 256;

  ExecutionState &select() final {
    if (!current_ || ++steps_ % kBurst == 0)
      current_ = pick();
    return *current_;
  }
  void remove(ExecutionState *s) override {
    if (current_ == s)
      current_ = nullptr;
  }
  void forked(ExecutionState *, ExecutionState *) override { current_ = nullptr; }
  void pickAnew() override { current_ = nullptr; }
  // Right after the fork no state is picked yet: the burst goes to `first`.
  void pickBefore(ExecutionState *first, ExecutionState *) override {
    if (!current_)
      current_ = first;
  }

protected:
  virtual ExecutionState *pick() = 0;
  ExecutionState *current_ = nullptr;
  uint64_t steps_ = 0;
};

class RandomStateSearcher final : public BurstSearcher {
public:
  explicit RandomStateSearcher(uint64_t seed) : rng_(seed) {}
  void add(ExecutionState *s) override {
    index_[s] = states_.size();
    states_.push_back(s);
  }
  void remove(ExecutionState *s) override {
    BurstSearcher::remove(s);
    auto it = index_.find(s);
    if (it == index_.end())
      return;
    size_t i = it->second;
    states_[i] = states_.back();
    index_[states_[i]] = i;
    states_.pop_back();
    index_.erase(s);
  }
  void forked(ExecutionState *parent, ExecutionState *child) override {
    BurstSearcher::forked(parent, child);
    add(child);
  }
  bool empty() const override { return states_.empty(); }

private:
  ExecutionState *pick() override { return states_[rng_() % states_.size()]; }
  std::mt19937_64 rng_;
  std::vector<ExecutionState *> states_;
  std::unordered_map<ExecutionState *, size_t> index_;
};

// KLEE's random-path: a random walk down the tree of forks, so that a state's chance halves
// with every fork above it and deep loops cannot starve shallow paths.
class RandomPathSearcher final : public BurstSearcher {
public:
  explicit RandomPathSearcher(uint64_t seed) : rng_(seed) {}
  // A state added once the tree exists (one that waited to be merged) hangs beside the whole
  // tree under a new root.
  void add(ExecutionState *s) override {
    int leaf = int(nodes_.size());
    nodes_.push_back({-1, {-1, -1}, s, 1});
    leafOf_[s] = leaf;
    if (root_ < 0) {
      root_ = leaf;
      return;
    }
    int top = int(nodes_.size());
    nodes_.push_back({-1, {root_, leaf}, nullptr, nodes_[root_].live + 1});
    nodes_[root_].parent = top;
    nodes_[leaf].parent = top;
    root_ = top;
  }
  void remove(ExecutionState *s) override {
    BurstSearcher::remove(s);
    auto it = leafOf_.find(s);
    if (it == leafOf_.end())
      return;
    int n = it->second;
    leafOf_.erase(it);
    nodes_[n].state = nullptr;
    for (; n >= 0; n = nodes_[n].parent)
      --nodes_[n].live;
  }
  void forked(ExecutionState *parent, ExecutionState *child) override {
    BurstSearcher::forked(parent, child);
    int leaf = leafOf_.at(parent);
    int left = int(nodes_.size()), right = left + 1;
    nodes_.push_back({leaf, {-1, -1}, parent, 1});
    nodes_.push_back({leaf, {-1, -1}, child, 1});
    nodes_[leaf].kids[0] = left;
    nodes_[leaf].kids[1] = right;
    nodes_[leaf].state = nullptr;
    leafOf_[parent] = left;
    leafOf_[child] = right;
    for (int n = leaf; n >= 0; n = nodes_[n].parent)
      ++nodes_[n].live;
  }
  bool empty() const override { return leafOf_.empty(); }

private:
  struct Node {
    int parent;
    int kids[2];
    ExecutionState *state; // at leaves
    uint64_t live;         // live states below
  };
  ExecutionState *pick() override {
    int n = root_;
    while (!nodes_[n].state) {
      int a = nodes_[n].kids[0], b = nodes_[n].kids[1];
      bool aLive = nodes_[a].live > 0, bLive = nodes_[b].live > 0;
      n = aLive && bLive ? (rng_() & 1 ? a : b) : aLive ? a : b;
    }
    return nodes_[n].state;
  }
  std::mt19937_64 rng_;
  std::vector<Node> nodes_;
  std::unordered_map<ExecutionState *, int> leafOf_;
  int root_ = -1;
};

// Favours states that recently covered new lines: weight 1 / (1 + instructions since)^2.
class CovNewSearcher final : public BurstSearcher {
public:
  explicit CovNewSearcher(uint64_t seed) : rng_(seed) {}
  void add(ExecutionState *s) override { states_.push_back(s); }
  void remove(ExecutionState *s) override {
    BurstSearcher::remove(s);
    auto it = std::find(states_.begin(), states_.end(), s);
    if (it != states_.end()) {
      *it = states_.back();
      states_.pop_back();
    }
  }
  void forked(ExecutionState *parent, ExecutionState *child) override {
    BurstSearcher::forked(parent, child);
    add(child);
  }
  bool empty() const override { return states_.empty(); }

private:
  ExecutionState *pick() override {
    double total = 0;
    weights_.resize(states_.size());
    for (size_t i = 0; i < states_.size(); ++i) {
      double since = double(states_[i]->instructionsSinceNewCoverage);
      weights_[i] = 1.0 / ((1.0 + since) * (1.0 + since));
      total += weights_[i];
    }
    double x = std::uniform_real_distribution<double>(0, total)(rng_);
    for (size_t i = 0; i < states_.size(); ++i) {
      if (x < weights_[i])
        return states_[i];
      x -= weights_[i];
    }
    return states_.back();
  }
  std::mt19937_64 rng_;
  std::vector<ExecutionState *> states_;
  std::vector<double> weights_;
};

// Takes turns between searchers, one pick each: the default is random-path with covnew.
class InterleavedSearcher final : public Searcher {
public:
  explicit InterleavedSearcher(std::vector<std::unique_ptr<Searcher>> parts)
      : parts_(std::move(parts)) {}
  ExecutionState &select() override {
    ExecutionState &s = parts_[turn_]->select();
    if (++steps_ % BurstSearcher::kBurst == 0)
      turn_ = (turn_ + 1) % parts_.size();
    return s;
  }
  void add(ExecutionState *s) override {
    for (auto &p : parts_)
      p->add(s);
  }
  void remove(ExecutionState *s) override {
    for (auto &p : parts_)
      p->remove(s);
  }
  void forked(ExecutionState *parent, ExecutionState *child) override {
    for (auto &p : parts_)
      p->forked(parent, child);
  }
  bool empty() const override { return parts_.front()->empty(); }
  void pickAnew() override { parts_[turn_]->pickAnew(); }
  void pickBefore(ExecutionState *first, ExecutionState *then) override {
    for (auto &p : parts_)
      p->pickBefore(first, then);
  }

private:
  std::vector<std::unique_ptr<Searcher>> parts_;
  size_t turn_ = 0;
  uint64_t steps_ = 0;
};

} // namespace

std::unique_ptr<Searcher> createSearcher(SearchStrategy strategy, uint64_t seed) {
  switch (strategy) {
  case SearchStrategy::Dfs: return std::make_unique<DfsSearcher>();
  case SearchStrategy::Bfs: return std::make_unique<BfsSearcher>();
  case SearchStrategy::RandomState: return std::make_unique<RandomStateSearcher>(seed);
  case SearchStrategy::RandomPath: return std::make_unique<RandomPathSearcher>(seed);
  case SearchStrategy::CovNew: return std::make_unique<CovNewSearcher>(seed);
  case SearchStrategy::Default: break;
  }
  std::vector<std::unique_ptr<Searcher>> parts;
  parts.push_back(std::make_unique<RandomPathSearcher>(seed));
  parts.push_back(std::make_unique<CovNewSearcher>(seed + 1));
  return std::make_unique<InterleavedSearcher>(std::move(parts));
}

} // namespace cairn::engine
