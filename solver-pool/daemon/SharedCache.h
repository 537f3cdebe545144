// The solver pool's answer cache, shared by every lane and every client of a replica: decided
// queries by their key (poolCacheKey), least recently used out first when over its byte budget.
// Thread-safe; sharded so concurrent requests rarely wait on each other.
#pragma once

#include "cairn/v1/expr.pb.h"

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace cairn::pool {

struct SharedCacheStats {
  uint64_t lookups = 0, hits = 0, entries = 0, bytes = 0, capacityBytes = 0, evictions = 0;
};

class SharedCache {
public:
  explicit SharedCache(uint64_t capacityBytes);

  // Copies the answer for `key` into `out`: without its model unless `wantModel`. A sat answer
  // stored without a model does not answer a request for one.
  bool lookup(const std::string &key, bool wantModel, v1::QueryResponse &out);
  // Remembers a sat or unsat answer (unknown ones depend on time limits and load, not on the
  // query); `hasModel` says whether a sat answer carries its model.
  void insert(const std::string &key, const v1::QueryResponse &response, bool hasModel);

  SharedCacheStats stats() const;

private:
  struct Entry {
    v1::QueryResponse response;
    bool hasModel = false;
    uint64_t bytes = 0;
    std::list<const std::string *>::iterator lru; // position in Shard::order
  };
  struct Shard {
    mutable std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
    std::list<const std::string *> order; // most recently used first; keys live in `entries`
    uint64_t bytes = 0;
  };
  static constexpr size_t kShards = 16;

  Shard &shardOf(const std::string &key);

  uint64_t shardCapacity_;
  std::unique_ptr<Shard[]> shards_;
  std::atomic<uint64_t> lookups_{0}, hits_{0}, evictions_{0};
};

} // namespace cairn::pool
