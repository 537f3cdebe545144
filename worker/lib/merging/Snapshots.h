// The lineage bookkeeping of incremental merging's snapshots (MergeContext::snapshots): a
// snapshot stands for the paths of the states that descend from it only while all of those
// are still on their way. A path that ended under it (its test written, its error reported)
// or a state under it merged with one from outside makes the snapshot's subtree no longer
// its own paths: merging with it then would explore a path twice or lose one, so it goes.
#pragma once

#include "cairn/engine/ExecutionState.h"

#include <span>

namespace cairn::engine {

// `s` ended: every snapshot it descends from goes.
void forgetLineage(const ExecutionState &s);
// The same for one of its contexts (its path ended there: it waits at the context's end).
void forgetLineage(const MergeMembership &m);
// The group becomes its first state: per context, its lineage is what all of them share;
// the snapshots past that, on any member's line, go.
void joinLineages(std::span<ExecutionState *const> group);

} // namespace cairn::engine
