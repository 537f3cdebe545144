#include "merging/Snapshots.h"

#include "merging/MergeContext.h"

namespace cairn::engine {

namespace {

void forget(MergeContext &c, std::span<const uint32_t> ids) {
  if (c.snapshots.empty())
    return;
  for (uint32_t id : ids)
    c.snapshots.erase(id); // snapshotsAt drops the id when it next looks there
}

} // namespace

void forgetLineage(const MergeMembership &m) { forget(*m.context, m.lineage); }

void forgetLineage(const ExecutionState &s) {
  for (const MergeMembership &m : s.merges)
    forgetLineage(m);
}

void joinLineages(std::span<ExecutionState *const> group) {
  ExecutionState &first = *group.front();
  for (size_t i = 0; i < first.merges.size(); ++i) {
    std::vector<uint32_t> &kept = first.merges[i].lineage;
    size_t shared = kept.size();
    for (const ExecutionState *s : group.subspan(1)) {
      const std::vector<uint32_t> &theirs = s->merges[i].lineage;
      size_t n = 0;
      while (n < shared && n < theirs.size() && theirs[n] == kept[n])
        ++n;
      shared = n;
    }
    MergeContext &c = *first.merges[i].context;
    for (const ExecutionState *s : group) {
      const std::vector<uint32_t> &line = s->merges[i].lineage;
      if (line.size() > shared)
        forget(c, std::span(line).subspan(shared));
    }
    kept.resize(shared);
  }
}

} // namespace cairn::engine
