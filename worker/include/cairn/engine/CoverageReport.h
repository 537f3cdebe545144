// Line and branch coverage for CI systems: lcov's tracefile format, as genhtml, Codecov and
// GitLab read it.
#pragma once

#include "cairn/engine/Executor.h"
#include "cairn/engine/Program.h"

#include <string>
#include <vector>

namespace cairn::engine {

// What a coverage report is written from, without the program: its files, the lines that hold
// code, and each decision's line and branches. A coordinator keeps it per job.
struct CoverageTable {
  struct Decision {
    uint64_t line = 0;            // (file index << 32) | line
    uint32_t first = 0, count = 0; // its branches (Program::branchTargets)
  };
  std::vector<std::string> files;
  std::vector<uint64_t> coverable; // (file index << 32) | line, sorted
  std::vector<Decision> decisions; // in program order
};
CoverageTable coverageTable(const Program &program);

// One record per source file of the program: SF; a BRDA line per edge of each conditional
// branch and switch (1 when some path took it, 0 when none did, "-" for all of a decision no
// path took any edge of), BRF and BRH; a DA line per line with code (1 when some path ran it,
// else 0), LF and LH. Hit counts are not kept: taken or not. `coveredLines` sorted;
// `branchesTaken` per branch, 1 when taken.
std::string lcovReport(const CoverageTable &table, const std::vector<uint64_t> &coveredLines,
                       const std::vector<uint8_t> &branchesTaken);
std::string lcovReport(const Program &program, const RunStatistics &stats);

} // namespace cairn::engine
