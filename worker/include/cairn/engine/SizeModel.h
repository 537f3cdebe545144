// How the engine treats an allocation whose size is symbolic, and how it merges states.
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

struct MergeOptions {
  // A group of more states than this leaving one merge point continues unmerged.
  uint64_t maxStates = 10000;
  // Loops that call functions of the program (not intrinsics or external declarations) are
  // not merged: the chapter's default, since their states rarely stay compatible.
  bool loopsWithCalls = false;
  // Region merges (klee_open_merge) build their formulas from the execution tree; false:
  // from each state's path condition. Loop merges follow the size mode (merge-opt: the tree).
  bool treeEncoding = true;
};

struct MergeStats {
  uint64_t contexts = 0;        // merge regions and size-dependent loops opened
  uint64_t merges = 0;          // groups merged into one state
  uint64_t statesMerged = 0;    // states that went into those merges
  uint64_t refused = 0;         // groups left unmerged (incompatible states, too many states)
  uint64_t earlyTerminated = 0; // states of a context that ended before its merge point
  uint64_t constraintNodes = 0; // size of the merged path conditions (distinct nodes, summed)
  uint64_t valueNodes = 0;      // size of the merged register and memory values
  uint64_t sizeForks = 0;       // eager mode: states forked per feasible allocation size
  uint64_t symbolicSizeObjects = 0;
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
