// The results of a local run on disk, in KLEE's layout: testNNNNNN.ktest per test, a .err file
// beside each error's test, and summary.json.
#pragma once

#include "cairn/engine/Executor.h"

#include <string>

namespace cairn::engine {

// Where an output directory keeps the host files a run mapped in (--file).
inline constexpr const char *kMappedFilesDirectory = "files";

class OutputDirectory final : public ResultSink {
public:
  // Creates `path`; an existing non-empty directory is refused (results never mix).
  explicit OutputDirectory(std::string path);
  ~OutputDirectory() override;
  OutputDirectory(const OutputDirectory &) = delete;
  OutputDirectory &operator=(const OutputDirectory &) = delete;
  // `cairn-out-N` next to the program, with the first N not yet taken.
  static std::string nextFreeName(const std::string &programPath);

  // The program's argv, recorded in every test as KLEE does.
  void setProgramArgs(std::vector<std::string> argv) { argv_ = std::move(argv); }
  // The host files mapped in (--file), kept as `files/NAME` for `cairn replay` to lay out again
  // beside each test's symbolic files.
  void keepMappedFiles(const std::vector<MappedFile> &files);
  void onTest(const TestCase &test) override;
  // Writes summary.json and returns its text.
  std::string writeSummary(const RunStatistics &stats);
  const std::string &path() const { return path_; }
  // The errors met, each with its test's file name.
  const std::vector<std::pair<ErrorReport, std::string>> &errors() const { return errors_; }

private:
  // Writes `name` in the directory; throws with the file's path when it cannot.
  void write(const std::string &name, const std::string &text);

  std::string path_;
  int dir_ = -1; // files are created relative to it: no path walk per test
  std::vector<std::string> argv_;
  uint64_t tests_ = 0;
  std::vector<std::pair<ErrorReport, std::string>> errors_; // with their test file names
};

// The summary as one JSON object (the contract in design.md).
std::string summaryJson(const RunStatistics &stats,
                        const std::vector<std::pair<ErrorReport, std::string>> &errors);

} // namespace cairn::engine
