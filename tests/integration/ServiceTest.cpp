// A job on a cluster (a coordinator, three workers and a solver pool, each a process on
// loopback) finds what `cairn run` finds alone: the same paths, tests and errors.
#include "ServiceCluster.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

fs::path workDir(const std::string &name) {
  return fs::path(::testing::TempDir()) / ("cairn-service-" + name + "-" + std::to_string(::getpid()));
}

RunOutcome runAlone(const std::string &program, const fs::path &out) {
  CommandResult r = runCommand({CAIRN_BIN, "run", "--search", "dfs", "--quiet", "--output-dir", out.string(), program});
  EXPECT_EQ(r.status, 0) << r.output;
  return outcomeOf(out);
}

struct Case {
  std::string program;
  bool replay = true;       // replay every test natively (too slow for thousands of tests)
  bool mustSplit = false;   // long enough that work must move between workers
};

void PrintTo(const Case &c, std::ostream *os) { *os << fs::path(c.program).filename().string(); }

class Service : public ::testing::TestWithParam<Case> {};

TEST_P(Service, JobFindsWhatCairnRunFinds) {
  const Case &c = GetParam();
  const std::string name = fs::path(c.program).stem().string();
  const fs::path dir = workDir(name);
  Cluster cluster(dir / "cluster", ClusterOptions{});
  ASSERT_TRUE(cluster.ready());
  RunOutcome alone = runAlone(c.program, dir / "alone");
  EXPECT_NE(alone.pathsCompleted, "0");
  std::string failure;
  std::string job = cluster.runJob(c.program, {"--search", "dfs"}, dir / "job", failure);
  ASSERT_FALSE(job.empty()) << failure;
  // Paths, tests (one a path, and one per error location: none twice), forks, instructions
  // (those rebuilding a prefix not counted again) and errors.
  EXPECT_EQ(describe(outcomeOf(dir / "job")), describe(alone));
  // Errors name the program's file as it was submitted, not where the coordinator compiled it.
  std::ifstream summary(dir / "job" / "summary.json");
  std::string text((std::istreambuf_iterator<char>(summary)), {});
  EXPECT_EQ(text.find("upload-"), std::string::npos) << text;
  if (c.replay) { // each test's inputs do natively what the job says they do
    CommandResult replay = runWithStderr({CAIRN_BIN, "replay", c.program, (dir / "job").string()});
    EXPECT_EQ(replay.status, 0) << replay.output;
  }
  if (c.mustSplit) {
    CommandResult status = cluster.cairn("status", {"--json", job});
    EXPECT_GT(jsonNumber(status.output, "itemsTotal"), 2) << status.output;
  }
  fs::remove_all(dir);
}

const std::string kE2e = CAIRN_E2E_DIR;
INSTANTIATE_TEST_SUITE_P(
    Corpus, Service,
    ::testing::Values(Case{kE2e + "/err_many_kinds.c"}, Case{kE2e + "/err_dedup.c"}, Case{kE2e + "/maze.c"},
                      Case{kE2e + "/regexp.c", false}, Case{kE2e + "/symbolic_pointer.c"}, Case{kE2e + "/heap.c"},
                      Case{kE2e + "/strings_libc.c"},
                      Case{std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c", false, true}),
    [](const ::testing::TestParamInfo<Case> &info) {
      std::string n = fs::path(info.param.program).stem().string();
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    });

} // namespace
