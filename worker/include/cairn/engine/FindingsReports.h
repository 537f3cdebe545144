// A run's errors for CI systems: SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps),
// JUnit XML for test reports. Both come from what the output directory recorded, so `cairn run`
// and `cairn results` (a job's results) write the same files.
#pragma once

#include "cairn/engine/Executor.h"

#include <string>
#include <utility>
#include <vector>

namespace cairn::engine {

// An error with the name of the test that reproduces it (testNNNNNN.ktest).
using RecordedErrors = std::vector<std::pair<ErrorReport, std::string>>;

struct ReportContext {
  std::string program;     // as the user named it
  std::string outputDir;   // where the tests are
  std::string toolVersion; // Cairn's version
};

// One result per error: rule id TYPE/KIND (one rule per kind met), the error's source location,
// its call stack as a code flow (outermost call first), the test as an attachment beside the
// output directory (uri base OUTPUT_DIR: its file URI when the directory is absolute, else its
// name in a description). `model` errors (what the engine cannot run) are
// warnings; every other kind is an error.
std::string sarifReport(const ReportContext &context, const RecordedErrors &errors);

// One test suite for the program: a failed test case per error location (its message and
// stack, the test to replay), a passed one for the paths that completed without an error, and
// a skipped one for the paths a limit cut short, when there were any.
std::string junitReport(const ReportContext &context, const RunStatistics &stats, const RecordedErrors &errors);

} // namespace cairn::engine
