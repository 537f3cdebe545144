// Line and branch coverage for CI systems: lcov's tracefile format, as genhtml, Codecov and
// GitLab read it.
#pragma once

#include "cairn/engine/Executor.h"
#include "cairn/engine/Program.h"

#include <string>

namespace cairn::engine {

// One record per source file of the program: SF; a BRDA line per edge of each conditional
// branch and switch (1 when some path took it, 0 when none did, "-" for all of a decision no
// path took any edge of), BRF and BRH; a DA line per line with code (1 when some path ran it,
// else 0), LF and LH. Hit counts are not kept: taken or not.
std::string lcovReport(const Program &program, const RunStatistics &stats);

} // namespace cairn::engine
