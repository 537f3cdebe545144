// `--test-comp DIR` of cairn run and cairn results: where the Test-Comp suite goes, and writing
// it from the output directory's tests (engine/TestCompReport.h makes the files).
#pragma once

#include "cairn/engine/TestCompReport.h"

#include <string>
#include <utility>
#include <vector>

namespace cairn::client {

// Refuses (std::runtime_error) a DIR that exists and is not an empty directory: a suite is read
// as every file of its directory, so it never mixes with an earlier one.
void checkTestCompDirectory(const std::string &dir);

// Writes the suite of the tests in `outputDir` into `dir`, warns about the tests left out (their
// inputs are not all __VERIFIER_nondet_* values). With `needInputs` (a job's results, whose
// program was not looked at here) a suite in which no test holds such an input is refused
// instead (std::runtime_error), with nothing written.
void writeTestCompSuite(const std::string &dir, const engine::TestCompMetadata &metadata,
                        const std::string &outputDir, const engine::RecordedErrors &errors, bool needInputs);

// Writes a suite's files (name, text) into `dir` and warns about the tests left out.
void writeTestCompFiles(const std::string &dir, const std::vector<std::pair<std::string, std::string>> &files,
                        const std::vector<std::string> &skipped);

} // namespace cairn::client
