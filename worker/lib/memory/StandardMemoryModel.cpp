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
  const std::vector<ExprRef> &solverConstraints(ExecutionState &s) override { return s.constraints; }
  PathConstraints solverPath(ExecutionState &s, bool) override { return s.constraints; }
  void tookLayoutBranch(ExecutionState &) override {}
  bool crossesObjects(const ExprRef &, const MemoryObject &) override { return false; }

  void beforeResolution(ExecutionState &, const ExprRef &) override {}
  bool splitForAccess(ExecutionState &, const MemoryObject &, const ExprRef &) override { return false; }
};

} // namespace

std::unique_ptr<MemoryModel> createStandardModel() { return std::make_unique<StandardMemoryModel>(); }

} // namespace cairn::engine
