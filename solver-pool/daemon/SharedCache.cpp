#include "SharedCache.h"

namespace cairn::pool {

namespace {

// What an entry costs besides its key and answer: map node, list node, bookkeeping.
constexpr uint64_t kEntryOverhead = 128;

void copyWithoutModel(const v1::QueryResponse &from, v1::QueryResponse &to) {
  to.Clear();
  to.set_result(from.result());
  to.set_reason(from.reason());
}

} // namespace

SharedCache::SharedCache(uint64_t capacityBytes)
    : shardCapacity_(capacityBytes / kShards), shards_(new Shard[kShards]) {}

SharedCache::Shard &SharedCache::shardOf(const std::string &key) {
  return shards_[std::hash<std::string>{}(key) % kShards];
}

bool SharedCache::lookup(const std::string &key, bool wantModel, v1::QueryResponse &out) {
  ++lookups_;
  Shard &s = shardOf(key);
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.entries.find(key);
  if (it == s.entries.end())
    return false;
  Entry &e = it->second;
  const bool sat = e.response.result() == v1::QueryResponse::RESULT_SAT;
  if (wantModel && sat && !e.hasModel)
    return false;
  s.order.splice(s.order.begin(), s.order, e.lru);
  if (wantModel)
    out = e.response;
  else
    copyWithoutModel(e.response, out);
  ++hits_;
  return true;
}

void SharedCache::insert(const std::string &key, const v1::QueryResponse &response,
                         bool hasModel) {
  if (response.result() != v1::QueryResponse::RESULT_SAT &&
      response.result() != v1::QueryResponse::RESULT_UNSAT)
    return;
  const uint64_t bytes = key.size() + response.ByteSizeLong() + kEntryOverhead;
  if (bytes > shardCapacity_)
    return;
  Shard &s = shardOf(key);
  std::lock_guard<std::mutex> lock(s.mutex);
  auto [it, fresh] = s.entries.try_emplace(key);
  Entry &e = it->second;
  if (!fresh) {
    // Two lanes decided the same query at once, or a model arrives for a model-less answer:
    // keep the entry that answers more requests.
    if (e.hasModel || !hasModel)
      return;
    s.bytes -= e.bytes;
    s.order.erase(e.lru);
  }
  e.response = response;
  e.hasModel = hasModel;
  e.bytes = bytes;
  s.order.push_front(&it->first);
  e.lru = s.order.begin();
  s.bytes += bytes;
  while (s.bytes > shardCapacity_ && s.order.size() > 1) {
    const std::string *victim = s.order.back();
    s.order.pop_back();
    auto v = s.entries.find(*victim);
    s.bytes -= v->second.bytes;
    s.entries.erase(v);
    ++evictions_;
  }
}

SharedCacheStats SharedCache::stats() const {
  SharedCacheStats out;
  out.lookups = lookups_;
  out.hits = hits_;
  out.evictions = evictions_;
  out.capacityBytes = shardCapacity_ * kShards;
  for (size_t i = 0; i < kShards; ++i) {
    std::lock_guard<std::mutex> lock(shards_[i].mutex);
    out.entries += shards_[i].entries.size();
    out.bytes += shards_[i].bytes;
  }
  return out;
}

} // namespace cairn::pool
