#include "merging/LiveRegisters.h"

#include "analysis/Liveness.h"

namespace cairn::engine {

LiveRegisters::LiveRegisters(const Program &program) : program_(program) {}
LiveRegisters::~LiveRegisters() = default;

std::vector<const std::vector<bool> *> LiveRegisters::of(const ExecutionState &s) {
  std::vector<const std::vector<bool> *> live;
  live.reserve(s.stack.size());
  for (const Frame &f : s.stack) {
    std::unique_ptr<analysis::Liveness> &l = liveness_[f.function];
    if (!l)
      l = std::make_unique<analysis::Liveness>(program_.functions[f.function]);
    live.push_back(&l->liveBefore(f.block, f.pc));
  }
  return live;
}

} // namespace cairn::engine
