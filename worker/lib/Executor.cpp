// The public face of the engine (Executor.h); the run itself is the Engine's (executor/).
#include "cairn/engine/Executor.h"

#include "executor/Engine.h"

namespace cairn::engine {

class Executor::Impl : public Engine {
  using Engine::Engine;
};

Executor::Executor(const Program &program, ExecutorOptions options, ResultSink &sink)
    : impl_(std::make_unique<Impl>(program, std::move(options), sink)) {}
Executor::~Executor() = default;
RunStatistics Executor::run() { return impl_->run(); }
void Executor::requestSplit(size_t count) { impl_->requestSplit(count); }
size_t Executor::liveStates() const { return impl_->liveStates(); }

uint64_t RunStatistics::addressCacheMismatches() const {
  uint64_t n = 0;
  for (const SolverLayerStats &l : solverLayers)
    for (const auto &[name, value] : l.counters)
      if (l.layer == "address-cache" && name == "mismatches")
        n += value;
  return n;
}

} // namespace cairn::engine
