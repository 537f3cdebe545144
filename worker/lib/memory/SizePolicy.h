// Allocation under the size model (cairn/engine/SizeModel.h): a concrete size is allocated as
// it is; a symbolic one is fixed to a small value it can take, forked on as KLEE does (concrete
// model), forked per feasible value (eager) or kept as an expression bounded by a capacity
// (lazy and the merge modes).
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "executor/FunctionRef.h"

#include <optional>
#include <string>

namespace cairn::engine {

class Engine;

class SizePolicy {
public:
  // Called on each state an allocation results in, with the object's address (0: the
  // allocation failed, too large).
  using Done = FunctionRef<void(ExecutionState &, uint64_t)>;

  explicit SizePolicy(Engine &engine) : engine_(engine) {}
  // The object's address is a multiple of `alignment` (MemoryAccess::allocate).
  void allocate(ExecutionState &s, const Value &size, ObjectKind kind, const std::string &name, uint32_t loc,
                Done done, uint64_t alignment = 16);
  // calloc's size: count times element size, each a size_t (too large when it overflows).
  Value product(const Value &count, const Value &each);

private:
  void fixSize(ExecutionState &s, const ExprRef &size, ObjectKind kind, const std::string &name, uint32_t loc,
               Done done, uint64_t alignment);
  std::optional<uint64_t> boundSize(ExecutionState *&s, const ExprRef &size, Done done);
  std::optional<uint64_t> leastSize(ExecutionState &s, const ExprRef &size, uint64_t from);
  // Ends a state whose size exceeds `capacity` as a partial path, counted as cut by the bound.
  void cutAboveCapacity(ExecutionState &s, uint64_t capacity);
  void noteCapacity(uint64_t capacity);
  // A concrete size: NULL when too large, else the object, unless the memory limit ends the state.
  void allocateFixed(ExecutionState &s, u128 size, ObjectKind kind, const std::string &name, uint32_t loc, Done done,
                     uint64_t alignment);
  // Whether the state's objects stay within --max-memory with `size` more bytes; when they do
  // not, the state ends as a partial path.
  bool withinMemoryLimit(ExecutionState &s, u128 size);

  Engine &engine_;
};

} // namespace cairn::engine
