#include "cairn/engine/CoverageReport.h"

#include <algorithm>

namespace cairn::engine {

std::string lcovReport(const Program &program, const RunStatistics &stats) {
  std::string out = "TN:cairn\n";
  const std::vector<uint64_t> &lines = program.coverableLineKeys; // sorted: file by file
  for (size_t i = 0; i < lines.size();) {
    const uint32_t file = uint32_t(lines[i] >> 32);
    size_t found = 0, hit = 0;
    out += "SF:" + program.files[file] + "\n";
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
