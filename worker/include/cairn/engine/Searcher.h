// Which state runs next.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace cairn::engine {

struct ExecutionState;

enum class SearchStrategy : uint8_t { Dfs, Bfs, RandomState, RandomPath, CovNew, Default };
bool parseSearchStrategy(std::string_view name, SearchStrategy &out);

class Searcher {
public:
  virtual ~Searcher() = default;
  virtual ExecutionState &select() = 0;
  virtual void add(ExecutionState *s) = 0;
  virtual void remove(ExecutionState *s) = 0;
  // `child` was forked off `parent`; both continue.
  virtual void forked(ExecutionState *parent, ExecutionState *child) = 0;
  virtual bool empty() const = 0;
  // The next select() is a new decision: a searcher that keeps one state for a burst of
  // selects picks anew. Dynamic merging asks at every block entry, since its driving heuristic
  // decides each step of the paper's Algorithm 2.
  virtual void pickAnew() {}
  // `first` should be picked before `then` (the two sides of a fork) where the strategy's own
  // order leaves it free: incremental merging lets the side that still has to reach the join
  // run while the other waits there. Ignored by the strategies that choose by other measures.
  virtual void pickBefore(ExecutionState *first, ExecutionState *then) {}
};

std::unique_ptr<Searcher> createSearcher(SearchStrategy strategy, uint64_t seed);

} // namespace cairn::engine
