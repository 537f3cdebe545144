// Line coverage for CI systems: lcov's tracefile format, as genhtml, Codecov and GitLab read it.
#pragma once

#include "cairn/engine/Executor.h"
#include "cairn/engine/Program.h"

#include <string>

namespace cairn::engine {

// One record per source file of the program: SF, a DA line per line with code (1 when some path
// ran it, else 0), LF and LH. Only line coverage: hit counts are not kept.
std::string lcovReport(const Program &program, const RunStatistics &stats);

} // namespace cairn::engine
