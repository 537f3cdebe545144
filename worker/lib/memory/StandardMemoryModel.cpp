// The standard model: every object's base is its concrete address, as in KLEE.
#include "memory/MemoryModel.h"

namespace cairn::engine {

namespace {

class StandardMemoryModel final : public MemoryModel {
public:
  void initialize(ExecutionState &) override {}
  void place(const ExecutionState &, MemoryObject &) override {}

  std::optional<u128> layoutValue(const ExecutionState &, const ExprRef &e) override {
    return e->isConstant() ? std::optional<u128>(e->value()) : std::nullopt;
  }
  ExprRef substitute(const ExecutionState &, const ExprRef &e) override { return e; }
  const ConstraintList &solverConstraints(ExecutionState &s) override { return s.constraints; }
  PathConstraints solverPath(ExecutionState &s, bool) override { return s.constraints; }
  void tookLayoutBranch(ExecutionState &) override {}
  bool crossesObjects(const ExprRef &, const MemoryObject &) override { return false; }

  void beforeResolution(ExecutionState &, const ExprRef &) override {}
  bool splitForAccess(ExecutionState &, const MemoryObject &, const ExprRef &) override { return false; }

  // Nothing is ever moved.
  bool isMoved(const MemoryObject &) override { return false; }
  std::optional<Whole> wholeOf(const MemoryObject &) override { return std::nullopt; }
  void rejoin(ExecutionState &, const MemoryObject &) override {}
  bool checkAccess(ExecutionState &, const AddressSpace::Entry &, uint64_t, unsigned) override { return true; }
  void free(ExecutionState &, const AddressSpace::Entry &, uint64_t) override {}
  std::optional<uint64_t> objectSizeAt(const MemoryObject &, uint64_t) override { return std::nullopt; }
  std::vector<uint64_t> objectStartsIn(const MemoryObject &) override { return {}; }
  // Every object lies where the engine placed it, so any free range will do.
  std::string reservedRange(uint64_t, uint64_t) override { return {}; }
};

} // namespace

std::unique_ptr<MemoryModel> createStandardModel() { return std::make_unique<StandardMemoryModel>(); }

} // namespace cairn::engine
