#include "cairn/engine/CoverageReport.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cairn::engine {

namespace {

// A file's branch records: BRDA per edge of each decision in line order, then BRF and BRH.
// lcov's block number tells a line's decisions apart (`a && b` is two): 0, 1, ... per line.
std::string branchRecords(const Program &program, const RunStatistics &stats,
                          const std::vector<std::pair<uint32_t, uint32_t>> &sites) {
  auto taken = [&](uint32_t branch) { return branch < stats.branchesTaken.size() && stats.branchesTaken[branch]; };
  std::string out;
  size_t found = 0, hit = 0;
  uint32_t line = 0, block = 0;
  for (const auto &[siteLine, index] : sites) {
    block = siteLine == line ? block + 1 : 0;
    line = siteLine;
    const BranchSite &site = program.branchSites[index];
    // No edge taken: no path ran the decision (a path cut short right at it aside): "-".
    bool ran = false;
    for (uint32_t b = site.first; b < site.first + site.count; ++b)
      ran |= taken(b);
    for (uint32_t k = 0; k < site.count; ++k) {
      const bool t = taken(site.first + k);
      out += "BRDA:" + std::to_string(line) + "," + std::to_string(block) + "," + std::to_string(k) + "," +
             (ran ? (t ? "1" : "0") : "-") + "\n";
      ++found;
      hit += t;
    }
  }
  return out + "BRF:" + std::to_string(found) + "\nBRH:" + std::to_string(hit) + "\n";
}

} // namespace

std::string lcovReport(const Program &program, const RunStatistics &stats) {
  // The decisions of each file as (line, site), in line order (program order within a line).
  std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> sitesOf;
  for (uint32_t i = 0; i < program.branchSites.size(); ++i) {
    const SourceLocation &l = program.locations[program.branchSites[i].loc];
    sitesOf[l.file].emplace_back(l.line, i);
  }
  for (auto &[file, sites] : sitesOf)
    std::sort(sites.begin(), sites.end());
  std::string out = "TN:cairn\n";
  const std::vector<uint64_t> &lines = program.coverableLineKeys; // sorted: file by file
  for (size_t i = 0; i < lines.size();) {
    const uint32_t file = uint32_t(lines[i] >> 32);
    size_t found = 0, hit = 0;
    out += "SF:" + program.files[file] + "\n";
    out += branchRecords(program, stats, sitesOf[file]);
    for (; i < lines.size() && uint32_t(lines[i] >> 32) == file; ++i, ++found) {
      bool ran = std::binary_search(stats.coveredLines.begin(), stats.coveredLines.end(), lines[i]);
      hit += ran;
      out += "DA:" + std::to_string(uint32_t(lines[i])) + "," + (ran ? "1" : "0") + "\n";
    }
    out += "LF:" + std::to_string(found) + "\nLH:" + std::to_string(hit) + "\nend_of_record\n";
  }
  return out;
}

} // namespace cairn::engine
