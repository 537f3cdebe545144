#include "RunOutcome.h"

#include "cairn/engine/Executor.h"

#include <spdlog/spdlog.h>

namespace cairn::client {

bool failsAddressCacheValidation(const engine::RunStatistics &stats) {
  uint64_t mismatches = stats.addressCacheMismatches();
  if (!mismatches)
    return false;
  spdlog::error("the address-aware cache gave {} answers the solver contradicts (see run.log)", mismatches);
  return true;
}

} // namespace cairn::client
