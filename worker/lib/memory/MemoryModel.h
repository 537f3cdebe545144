// Where objects lie and how a pointer's address is known: the seam between the engine and the
// memory models (cairn/engine/MemoryModel.h has their options).
//
// The standard model gives every object its concrete address as its base: a pointer is known
// when it is concrete, and the solver sees the path constraints as they are. The relocatable
// model gives objects symbolic bases, keeps per state where each base lies, substitutes those
// addresses into a query just before it reaches the solver, and may move objects into segments
// or split them into chunks when a symbolic pointer is resolved.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/solver/Solver.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cairn::engine {

class Engine;

class MemoryModel {
public:
  virtual ~MemoryModel() = default;

  // Gives the run's first state what the model keeps per state.
  virtual void initialize(ExecutionState &s) = 0;
  // Sets what the model decides of a new object before it is bound: its base expression (left
  // null: the object's address is its base) and the like.
  virtual void place(const ExecutionState &s, MemoryObject &mo) = 0;

  // The value `e` has on the state's layout when the layout alone determines it.
  virtual std::optional<u128> layoutValue(const ExecutionState &s, const ExprRef &e) = 0;
  // `e` as the solver gets it on this state.
  virtual ExprRef substitute(const ExecutionState &s, const ExprRef &e) = 0;
  // The path constraints as the solver gets them.
  virtual const ConstraintList &solverConstraints(ExecutionState &s) = 0;
  // The path constraints as the solver's questions take them: substituted, and as built when a
  // layer caches by that form (the address-aware cache). `aboutLayout`: the question asks
  // where objects lie, so only its substituted form may answer it.
  virtual PathConstraints solverPath(ExecutionState &s, bool aboutLayout) = 0;
  // The state took a branch on where objects lie.
  virtual void tookLayoutBranch(ExecutionState &s) = 0;
  // Whether resolving `p` to `mo` is a question about the layout (see addressQuestion).
  virtual bool crossesObjects(const ExprRef &p, const MemoryObject &mo) = 0;

  // Before the symbolic pointer `p` is resolved: the model may move the objects it can point
  // into (the state may end, when the solver fails).
  virtual void beforeResolution(ExecutionState &s, const ExprRef &p) = 0;
  // An access at the symbolic `offset` into `mo`: true when the model split the object, and the
  // access is to be resolved again.
  virtual bool splitForAccess(ExecutionState &s, const MemoryObject &mo, const ExprRef &offset) = 0;

  // Objects the model made of others (MemoryObject::relocation); the standard model makes none.
  // An object that holds other objects, or is a part of one: accesses, free and realloc ask
  // the model about it.
  virtual bool isMoved(const MemoryObject &mo) = 0;
  // The object `mo` is a part of (a chunk of a split object): its base, address and size.
  struct Whole {
    ExprRef base;
    uint64_t address = 0, size = 0;
  };
  virtual std::optional<Whole> wholeOf(const MemoryObject &mo) = 0;
  // Puts the whole object `mo` is a part of back together (an access crosses its parts).
  virtual void rejoin(ExecutionState &s, const MemoryObject &mo) = 0;
  // A concrete access within the bounds of a moved object `e`; false when it ended the state.
  virtual bool checkAccess(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a, unsigned bytes) = 0;
  // free(a) inside the moved object `e`.
  virtual void free(ExecutionState &s, const AddressSpace::Entry &e, uint64_t a) = 0;
  // The size of the live object starting at `a` inside the moved object `mo`, if one does.
  virtual std::optional<uint64_t> objectSizeAt(const MemoryObject &mo, uint64_t a) = 0;
  // Where live objects start inside the moved object `mo` (what free may be given).
  virtual std::vector<uint64_t> objectStartsIn(const MemoryObject &mo) = 0;
  // Why the program may not place an object at [address, address + size) of its own
  // (klee_define_fixed_object): the model keeps that range for itself. Empty when it may.
  virtual std::string reservedRange(uint64_t address, uint64_t size) = 0;
};

std::unique_ptr<MemoryModel> createStandardModel();
std::unique_ptr<MemoryModel> createRelocatableModel(Engine &engine);

} // namespace cairn::engine
