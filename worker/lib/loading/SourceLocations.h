// Where each instruction comes from in the source: Program::locations and Program::files, each
// entry made once, and the user's lines that hold instructions (the coverage denominator).
#pragma once

#include "cairn/engine/Program.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>

namespace llvm {
class DILocation;
class Instruction;
} // namespace llvm

namespace cairn::engine {

class SourceLocations {
public:
  // Reserves location 0 and file 0 for "unknown".
  explicit SourceLocations(Program &p);

  // The index of the instruction's location in Program::locations. `user`: the instruction is
  // the user's program's, not the runtime's, so its line counts towards coverage.
  uint32_t location(const llvm::Instruction &inst, bool user);
  uint32_t location(const llvm::DILocation *loc, bool user); // 0 for none
  // A location of its own at the same place as `shared` (from location()): a melded
  // instruction's, whose first run the interpreter sees apart from its neighbours' (it covers
  // the lines the instruction was melded from).
  uint32_t distinctLocation(uint32_t shared);

  uint64_t userLineCount() const { return userLines_.size(); }
  // Each as (file index << 32) | line, sorted.
  std::vector<uint64_t> userLineKeys() const { return {userLines_.begin(), userLines_.end()}; }

private:
  Program &p_;
  std::unordered_map<std::string, uint32_t> fileIndex_;
  std::unordered_map<uint64_t, uint32_t> locationIndex_;
  std::set<uint64_t> userLines_;
};

} // namespace cairn::engine
