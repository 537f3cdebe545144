#include "cairn/engine/PathPrefix.h"

#include <cstdio>

namespace cairn::engine {

std::string pathId(const std::vector<uint8_t> &decisions) {
  // FNV-1a over the length and the decisions: the length keeps a path and its extension by
  // zeros apart.
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](uint8_t b) {
    h ^= b;
    h *= 0x100000001b3ull;
  };
  for (size_t n = decisions.size(), i = 0; i < 8; ++i)
    mix(uint8_t(n >> (8 * i)));
  for (uint8_t d : decisions)
    mix(d);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

} // namespace cairn::engine
