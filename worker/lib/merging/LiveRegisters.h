// The registers of each frame of a state that may still be read (analysis/Liveness.h), with
// each function's analysis made once, when a merge first needs it.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace cairn::engine {

namespace analysis {
class Liveness;
}

class LiveRegisters {
public:
  explicit LiveRegisters(const Program &program);
  ~LiveRegisters();
  // Per frame of `s`, the flags of its registers live where the frame stands.
  std::vector<const std::vector<bool> *> of(const ExecutionState &s);

private:
  const Program &program_;
  std::unordered_map<uint32_t, std::unique_ptr<analysis::Liveness>> liveness_; // per function
};

} // namespace cairn::engine
