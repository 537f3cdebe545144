// The QCE similarity of states (Kuznetsov et al., PLDI'12, Eq. 1): two states at the same
// position may merge when every hot variable is equal in both or symbolic in either, the hot
// variables being those whose estimated extra queries exceed alpha times the queries the state
// is expected to ask (analysis/QueryCounts.h). The estimate is per function; the last step is
// dynamic: a state's Q_t adds each caller's local count at its return point, a frame's
// variable adds the caller's count on the call's result times its own count in the returned
// value's estimate (QueryCountEstimate::returned), and each frame's variables are judged
// against that total.
//
// A state is judged at the entry of a block; its callers' frames are at the points after their
// calls.
#pragma once

#include "analysis/QueryCounts.h"
#include "cairn/engine/ExecutionState.h"

#include <absl/container/flat_hash_map.h>

#include <optional>

namespace cairn::engine {

// Where a state stands, its stack position ((function << 32 | next instruction) per frame,
// outermost first), as a number: states at the same position have the same one. A block entry
// looks the position up once; everything after keys on the number.
using PositionId = uint32_t;

class QceSimilarity {
public:
  QceSimilarity(const Program &program, analysis::QueryCountEstimate estimate);

  PositionId position(const ExecutionState &s);
  // Eq. 1, for states at the same `position`.
  bool similar(const ExecutionState &a, const ExecutionState &b, PositionId position);
  // The position and the hot values, symbolic ones as one token: equal for states that are
  // similar with every hot variable equal or symbolic in both (DSM's hashable form of Eq. 1).
  // `anySymbolic`: a hot value was symbolic (the state may be similar to states of any hash).
  uint64_t hash(const ExecutionState &s, PositionId position, bool &anySymbolic);
  // Q_t at the position: the queries a state there is expected to ask from here on, its
  // callers' after their calls included.
  double queriesAhead(PositionId position) const { return at_[position].queriesAhead; }
  // The state's hot variables, as "function:name" (or register / offset) for messages and tests.
  std::vector<std::string> describeHot(const ExecutionState &s);
  const analysis::QueryCountEstimate &estimate() const { return estimate_; }

private:
  struct Hot {
    uint32_t frame;
    uint32_t variable; // an id of the frame's function's estimate
  };
  struct Counted {
    Hot variable;
    double count; // variableCounts, the return share included
  };
  struct AtPosition {
    std::vector<Hot> hot;
    double queriesAhead = 0;
    // zeta > 1: the variables whose count can tip Eq. 7, concretely or symbolically different.
    std::vector<Counted> counted;
  };
  // Eq. 7, (zeta - 1) * max count of a symbolic difference + max count of a concrete one
  // <= alpha * Q_t (a strict > keeps states apart, as H's does).
  bool similarWithIteCost(const ExecutionState &a, const ExecutionState &b, const AtPosition &here) const;
  // Both states hold the same value of the variable (the same expression, the same object).
  bool sameValue(const ExecutionState &a, const ExecutionState &b, const Hot &h) const;
  AtPosition estimateAt(const ExecutionState &s) const;
  // The variable's concrete value (its bytes, little-endian, in one number; at most 16 bytes
  // compared) or nothing when it is symbolic or cannot be read.
  std::optional<u128> concreteValue(const ExecutionState &s, const Hot &h) const;
  // The counts (of `of`: the estimate's functions or returned) where the frame stands.
  const analysis::QueryCounts *countsAt(const std::vector<analysis::FunctionCounts> &of, const Frame &f,
                                        bool top) const;

  const Program &program_;
  analysis::QueryCountEstimate estimate_;
  absl::flat_hash_map<std::vector<uint64_t>, PositionId> ids_;
  std::vector<AtPosition> at_; // by PositionId
  std::vector<uint64_t> scratch_; // the position being looked up: no allocation per block entry
};

} // namespace cairn::engine
