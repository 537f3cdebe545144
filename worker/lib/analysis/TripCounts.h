// Trip counts of counted loops (`for (i = A; i < B; i += C)` with constant A, B and C), in the
// two shapes the translated program has them: an induction variable in a slot of the frame
// (unoptimised code: loaded at the header, stored once per iteration by the latch) and one in
// a phi node (optimised code). Other loops get none: the estimate bounds them by its κ.
#pragma once

#include "analysis/ControlFlow.h"
#include "analysis/DataDependence.h"

namespace cairn::engine::analysis {

// Iterations above `limit` count as none found.
void findTripCounts(const Program &program, const Function &fn, ControlFlow &cfg, DataDependence &deps,
                    uint32_t limit = 1024);

} // namespace cairn::engine::analysis
