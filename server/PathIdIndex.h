// A job's path ids, each to the number of the result kept for it. The engine's ids are 16 hex
// digits (a 64-bit hash of the path), kept as that number: a job's tens of thousands of ids cost
// no string each. Any other id a worker sends is kept as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace cairn::server {

class PathIdIndex {
public:
  // The number kept for `id` and true, with `seq` stored, when `id` is new.
  std::pair<int64_t *, bool> emplace(std::string_view id, int64_t seq) {
    if (std::optional<uint64_t> n = engineId(id)) {
      auto [it, fresh] = engineIds_.emplace(*n, seq);
      return {&it->second, fresh};
    }
    auto [it, fresh] = otherIds_.emplace(std::string(id), seq);
    return {&it->second, fresh};
  }

  const int64_t *find(std::string_view id) const {
    if (std::optional<uint64_t> n = engineId(id)) {
      auto it = engineIds_.find(*n);
      return it == engineIds_.end() ? nullptr : &it->second;
    }
    auto it = otherIds_.find(std::string(id));
    return it == otherIds_.end() ? nullptr : &it->second;
  }

private:
  // The number an id in the engine's form (exactly 16 lowercase hex digits) spells.
  static std::optional<uint64_t> engineId(std::string_view id) {
    if (id.size() != 16)
      return std::nullopt;
    uint64_t n = 0;
    for (char c : id) {
      unsigned digit;
      if (c >= '0' && c <= '9')
        digit = unsigned(c - '0');
      else if (c >= 'a' && c <= 'f')
        digit = unsigned(c - 'a' + 10);
      else
        return std::nullopt;
      n = n << 4 | digit;
    }
    return n;
  }

  std::unordered_map<uint64_t, int64_t> engineIds_;
  std::unordered_map<std::string, int64_t> otherIds_;
};

} // namespace cairn::server
