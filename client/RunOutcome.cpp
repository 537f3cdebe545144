#include "RunOutcome.h"

#include "cairn/engine/Executor.h"
#include "cairn/engine/Merging.h"

#include <spdlog/spdlog.h>

#include <fstream>

namespace cairn::client {

bool failsValidation(const engine::RunStatistics &stats) {
  const uint64_t cache = stats.addressCacheMismatches(), merges = stats.merging.mismatches;
  if (cache)
    spdlog::error("the address-aware cache gave {} answers the solver contradicts (see run.log)", cache);
  if (merges)
    spdlog::error("merge validation refuted {} quantified merges or answers (see run.log)", merges);
  return cache || merges;
}

std::string sizeBoundNote(const engine::SizeBoundStats &bound) {
  std::string note = "sizes above the capacity " + std::to_string(bound.capacity);
  if (bound.maxCapacity > bound.capacity)
    note += " (raised up to " + std::to_string(bound.maxCapacity) + " where a path needed more)";
  return note + " were not explored: " + std::to_string(bound.pathsCut) + " partial " +
         (bound.pathsCut == 1 ? "path" : "paths") + " cut there";
}

std::string mergingNote(const engine::MergeStats &m) {
  if (!m.qceFunctions)
    return "";
  std::string note = std::to_string(m.merges) + (m.merges == 1 ? " merge" : " merges") + " (" +
                     std::to_string(m.refused) + " refused); the paths ended stand for " +
                     std::to_string(m.multiplicity);
  if (m.fastForwarded)
    note += "; " + std::to_string(m.fastForwarded) + " states fast-forwarded, " +
            std::to_string(m.fastForwardedMerged) + " of them merged";
  return note;
}

std::string memoryLimitNote(const engine::MemoryLimitStats &l) {
  if (!l.statesEnded && !l.runsStopped)
    return "";
  std::string note = "the memory limit of " + std::to_string(l.limitMB) + " MB ended " + std::to_string(l.statesEnded) +
                     (l.statesEnded == 1 ? " state" : " states");
  if (l.runsStopped)
    note += "; the heap passed its ceiling of " + std::to_string(l.ceilingMB) + " MB and stopped " +
            (l.runsStopped == 1 ? "the run" : std::to_string(l.runsStopped) + " items") +
            " (raise --max-memory, or bound the inputs)";
  return note;
}

} // namespace cairn::client

namespace cairn::client {

void writeReport(const std::string &path, const std::string &what, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush())
    spdlog::error("cannot write the {} {}", what, path);
}

} // namespace cairn::client
