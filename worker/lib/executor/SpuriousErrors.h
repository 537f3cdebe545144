// Errors at instructions the branch transformation melded (BranchTransform.h), checked against
// the original program without running it again: a melded instruction is original under its
// guard's terms (Program.h, GuardTerm), an extra copy elsewhere. The state is split by the
// terms: where one holds, the error is the original program's, reported at that term's line;
// where none does, it is an extra instruction's, which the original program does not run: the
// error is dropped and the path goes on as the original does, past the instruction, whose value
// no original instruction reads.
#pragma once

#include "cairn/engine/ExecutionState.h"

#include <set>
#include <string>

namespace cairn::engine {

class Engine;
struct Termination;

class SpuriousErrors {
public:
  explicit SpuriousErrors(Engine &engine) : engine_(engine) {}
  // Takes over an error at the current instruction when it is a melded one: true when it did
  // (it reported the error on the states where it is real, and `s`, or the part of it where the
  // error is spurious, goes on).
  bool intercept(ExecutionState &s, const Termination &t);
  uint64_t filtered() const { return filtered_; }
  // FILE:LINE of the melded instructions whose errors were dropped.
  const std::set<std::string> &locations() const { return locations_; }

private:
  Engine &engine_;
  bool busy_ = false; // reporting the real part: that termination is not taken over again
  uint64_t filtered_ = 0;
  std::set<std::string> locations_;
};

} // namespace cairn::engine
