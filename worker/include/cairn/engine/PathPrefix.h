// Path prefixes: how a path's start travels between engines. Every answer that steered a state
// (each decided branch and the side taken at each fork, each concretized value) is recorded in
// order; an engine given those answers rebuilds the state without asking a solver, then
// explores below it. This is what a work item of a distributed job is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cairn::engine {

struct PathPrefix {
  std::vector<uint64_t> choices;
  // Instructions the state had run: the replay's share of the work, not counted twice.
  uint64_t instructions = 0;

  bool operator==(const PathPrefix &) const = default;
};

// A result's stable id: a hash of its path's branch decisions (TestCase::path), the same in
// every engine that explores that path, as 16 hex digits.
std::string pathId(const std::vector<uint8_t> &decisions);

} // namespace cairn::engine
