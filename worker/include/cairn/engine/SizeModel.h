// How the engine treats an allocation whose size is symbolic.
//
// concrete: as KLEE: fixed to a small value the path allows, forked on (README: Symbolic sizes).
// symbolic: the bounded symbolic-size model. The object keeps its size as an expression,
//           bounded by a capacity that the object reserves in the address space; bounds checks
//           and pointer resolution use the expression, so one path covers every size the path
//           constraints allow. The size mode says how the extra forks are handled:
//   eager      fork at the allocation, once per feasible size (concrete objects after that);
//   lazy       keep the size symbolic and fork where a check depends on it;
//   merge      lazy, and merge the states leaving a loop whose forks depend on a symbolic size,
//              one state per loop exit, guarded by each state's own path condition;
//   merge-opt  merge, with the formulas built from the loop's execution tree: linear in the
//              number of merged states instead of quadratic.
#pragma once

#include "cairn/engine/Merging.h"

#include <cstdint>
#include <string>

namespace cairn::engine {

enum class SizeModelKind : uint8_t { Concrete, Symbolic };
enum class SizeMode : uint8_t { Eager, Lazy, Merge, MergeOpt };

bool parseSizeModelKind(const std::string &name, SizeModelKind &out);
bool parseSizeMode(const std::string &name, SizeMode &out);

struct SizeModelOptions {
  SizeModelKind kind = SizeModelKind::Concrete;
  SizeMode mode = SizeMode::Lazy;
  // The largest size a symbolic-size object may take. When the path cannot keep the size
  // that small, the capacity is raised by `capacityStep` until it can.
  uint64_t capacity = 100;
  uint64_t capacityStep = 20;

  bool symbolic() const { return kind == SizeModelKind::Symbolic; }
  bool mergeLoops() const {
    return symbolic() && (mode == SizeMode::Merge || mode == SizeMode::MergeOpt);
  }
};

// The bound the symbolic-size model explores under: a size above its allocation's capacity is
// not explored. The states where it could be end there as partial paths, so that a run is
// never reported complete beyond the bound (summary.json "size_bound").
struct SizeBoundStats {
  uint64_t capacity = 0;    // --capacity
  uint64_t maxCapacity = 0; // the largest capacity an allocation had (raised where a path needed more)
  uint64_t pathsCut = 0;    // partial paths: states whose size could exceed the capacity
};

} // namespace cairn::engine
