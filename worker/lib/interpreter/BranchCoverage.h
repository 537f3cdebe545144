// The edges of conditional branches and switches taken so far in a run, for
// --only-new-coverage-tests: a path that takes one first has covered something new, as one
// that runs a line first has.
#pragma once

#include <cstdint>
#include <unordered_set>

namespace cairn::engine {

class BranchCoverage {
public:
  // True the first time the edge from block `from` to block `to` of `function` is taken.
  bool take(uint32_t function, uint32_t from, uint32_t to) {
    return edges_.insert(Edge{function, from, to}).second;
  }

private:
  struct Edge {
    uint32_t function, from, to;
    bool operator==(const Edge &) const = default;
  };
  struct EdgeHash {
    size_t operator()(const Edge &e) const {
      uint64_t h = (uint64_t(e.function) << 32 | e.from) * 0x9e3779b97f4a7c15ull;
      return size_t(h ^ (h >> 29) ^ (uint64_t(e.to) * 0xff51afd7ed558ccdull));
    }
  };
  std::unordered_set<Edge, EdgeHash> edges_;
};

} // namespace cairn::engine
