#include "TestCompOutput.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace cairn::client {

namespace fs = std::filesystem;

void checkTestCompDirectory(const std::string &dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec))
    return;
  if (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec))
    throw std::runtime_error("--test-comp: " + dir + " exists and is not an empty directory");
}

void writeTestCompSuite(const std::string &dir, const engine::TestCompMetadata &metadata,
                        const std::string &outputDir, const engine::RecordedErrors &errors, bool needInputs) {
  const engine::TestCompSuite suite = engine::testCompSuite(metadata, outputDir, errors);
  if (needInputs && suite.testsWithInputs == 0)
    throw std::runtime_error("--test-comp: no test holds a __VERIFIER_nondet_* input, the only inputs Test-Comp's "
                             "test cases hold; nothing written");
  writeTestCompFiles(dir, suite.files, suite.skipped);
}

void writeTestCompFiles(const std::string &dir, const std::vector<std::pair<std::string, std::string>> &files,
                        const std::vector<std::string> &skipped) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("--test-comp: cannot create " + dir + ": " + ec.message());
  for (const auto &[name, text] : files) {
    std::ofstream out(fs::path(dir) / name, std::ios::binary);
    out << text;
    if (!out.flush())
      throw std::runtime_error("--test-comp: cannot write " + (fs::path(dir) / name).string());
  }
  if (!skipped.empty())
    spdlog::warn("--test-comp: {} {} not written ({}{}): inputs other than __VERIFIER_nondet_* values "
                 "(klee_make_symbolic's, the POSIX model's) are not a Test-Comp harness's to feed",
                 skipped.size(), skipped.size() == 1 ? "test" : "tests", skipped.front(),
                 skipped.size() > 1 ? ", ..." : "");
}

} // namespace cairn::client
