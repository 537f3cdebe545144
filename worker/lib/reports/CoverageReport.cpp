#include "cairn/engine/CoverageReport.h"

#include <algorithm>
#include <map>

namespace cairn::engine {

namespace {

using Decision = CoverageTable::Decision;

// A file's branch records: BRDA per edge of each decision in line order, then BRF and BRH.
// lcov's block number tells a line's decisions apart (`a && b` is two): 0, 1, ... per line.
std::string branchRecords(const std::vector<const Decision *> &decisions, const std::vector<uint8_t> &branchesTaken) {
  auto taken = [&](uint32_t branch) { return branch < branchesTaken.size() && branchesTaken[branch]; };
  std::string out;
  size_t found = 0, hit = 0;
  uint32_t line = 0, block = 0;
  for (const Decision *d : decisions) {
    const uint32_t decisionLine = uint32_t(d->line);
    block = decisionLine == line ? block + 1 : 0;
    line = decisionLine;
    // No edge taken: no path ran the decision (a path cut short right at it aside): "-".
    bool ran = false;
    for (uint32_t b = d->first; b < d->first + d->count; ++b)
      ran |= taken(b);
    for (uint32_t k = 0; k < d->count; ++k) {
      const bool t = taken(d->first + k);
      out += "BRDA:" + std::to_string(line) + "," + std::to_string(block) + "," + std::to_string(k) + "," +
             (ran ? (t ? "1" : "0") : "-") + "\n";
      ++found;
      hit += t;
    }
  }
  return out + "BRF:" + std::to_string(found) + "\nBRH:" + std::to_string(hit) + "\n";
}

} // namespace

CoverageTable coverageTable(const Program &program) {
  CoverageTable t;
  t.files = program.files;
  t.coverable = program.coverableLineKeys;
  for (const BranchSite &site : program.branchSites) {
    const SourceLocation &l = program.locations[site.loc];
    t.decisions.push_back({(uint64_t(l.file) << 32) | l.line, site.first, site.count});
  }
  return t;
}

std::string lcovReport(const CoverageTable &table, const std::vector<uint64_t> &coveredLines,
                       const std::vector<uint8_t> &branchesTaken) {
  // The decisions of each file in line order (program order within a line).
  std::map<uint32_t, std::vector<const Decision *>> decisionsOf;
  for (const Decision &d : table.decisions)
    decisionsOf[uint32_t(d.line >> 32)].push_back(&d);
  for (auto &[file, decisions] : decisionsOf)
    std::stable_sort(decisions.begin(), decisions.end(),
                     [](const Decision *a, const Decision *b) { return a->line < b->line; });
  std::string out = "TN:cairn\n";
  const std::vector<uint64_t> &lines = table.coverable; // sorted: file by file
  for (size_t i = 0; i < lines.size();) {
    const uint32_t file = uint32_t(lines[i] >> 32);
    size_t found = 0, hit = 0;
    out += "SF:" + (file < table.files.size() ? table.files[file] : std::string()) + "\n";
    out += branchRecords(decisionsOf[file], branchesTaken);
    for (; i < lines.size() && uint32_t(lines[i] >> 32) == file; ++i, ++found) {
      bool ran = std::binary_search(coveredLines.begin(), coveredLines.end(), lines[i]);
      hit += ran;
      out += "DA:" + std::to_string(uint32_t(lines[i])) + "," + (ran ? "1" : "0") + "\n";
    }
    out += "LF:" + std::to_string(found) + "\nLH:" + std::to_string(hit) + "\nend_of_record\n";
  }
  return out;
}

std::string lcovReport(const Program &program, const RunStatistics &stats) {
  return lcovReport(coverageTable(program), stats.coveredLines, stats.branchesTaken);
}

} // namespace cairn::engine
