// Memory limits of jobs on workers: an item past its ceiling ends with its results and the worker
// takes the next; a job whose limit no worker offers waits, saying why, until one that does
// registers; an item that takes down every worker it is handed to ends its job instead of the
// whole cluster.
#include "ServiceCluster.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

const std::string kPrograms = CAIRN_SERVICE_PROGRAMS_DIR;

class ServiceLimits : public ::testing::Test {
protected:
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("cairn-limits-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                  "-" + std::to_string(::getpid()));

  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  static ClusterOptions workers(size_t n) {
    ClusterOptions o;
    o.workers = n;
    return o;
  }

  std::string submit(Cluster &cluster, const std::string &program, const std::vector<std::string> &options = {}) {
    std::string failure;
    const std::string job = cluster.submitDfs(program, options, failure);
    EXPECT_FALSE(job.empty()) << failure;
    return job;
  }

  static bool has(const std::string &json, const std::string &text) { return json.find(text) != std::string::npos; }
};

// The growing path's item passes its ceiling (1 MB and the 256 MB margin over what the worker
// held): the item ends, its path as a partial path with its test; the job completes, and the
// same worker runs the next job.
TEST_F(ServiceLimits, AnItemPastItsMemoryCeilingEndsWithItsResultsAndTheWorkerGoesOn) {
  Cluster cluster(dir / "cluster", workers(1));
  ASSERT_TRUE(cluster.ready());
  const std::string job = submit(cluster, kPrograms + "/term_growth.c", {"--max-memory", "1", "--max-time", "120"});
  CommandResult waited = cluster.cairn("wait", {"--timeout", "150", job});
  ASSERT_EQ(waited.status, 0) << waited.output;
  const std::string status = cluster.cairn("status", {"--json", job}).output;
  EXPECT_TRUE(has(status, "JOB_COMPLETED")) << status;
  EXPECT_EQ(jsonNumber(status, "pathsCompleted"), 0) << status;
  EXPECT_EQ(jsonNumber(status, "pathsPartial"), 1) << status;
  EXPECT_EQ(jsonNumber(status, "tests"), 1) << status;
  EXPECT_EQ(jsonNumber(status, "runsStopped"), 1) << status;
  EXPECT_EQ(jsonNumber(status, "limitMb"), 1) << status;
  EXPECT_LT(jsonReal(status, "elapsedS"), 100) << status; // the ceiling ended it, not the time limit
  CommandResult words = cluster.cairn("status", {job});
  EXPECT_TRUE(has(words.output, "stopped the run")) << words.output;
  ASSERT_EQ(cluster.workers()[0]->wait(0), -1) << "the worker ended";

  std::string failure;
  const std::string next = cluster.runJob(kPrograms + "/heap_paths.c", {"--search", "dfs"}, dir / "next", failure, 60);
  EXPECT_FALSE(next.empty()) << failure;
}

// A job asking 3000 MB waits on a worker that offers 1000, and says why; a worker offering 4000
// takes it. A job asking nothing runs on the small worker (under its 1000 MB).
TEST_F(ServiceLimits, AJobWaitsForAWorkerThatOffersTheMemoryItsLimitAsks) {
  Cluster cluster(dir / "cluster", workers(0));
  ASSERT_TRUE(cluster.addWorker({"--max-memory", "1000"}));
  ASSERT_TRUE(cluster.ready());
  const std::string big = submit(cluster, kPrograms + "/heap_paths.c", {"--max-memory", "3000"});
  std::string status = cluster.waitForStatus(big, 10, [](const std::string &s) { return has(s, "no worker offers"); });
  EXPECT_TRUE(has(status, "JOB_QUEUED")) << status;
  EXPECT_TRUE(has(status, "no worker offers the 3000 MB")) << status;
  EXPECT_TRUE(has(status, "offers 1000 MB")) << status;
  CommandResult words = cluster.cairn("status", {big});
  EXPECT_TRUE(has(words.output, "waiting: no worker offers the 3000 MB")) << words.output;

  std::string failure;
  const std::string small = cluster.runJob(kPrograms + "/heap_paths.c", {"--search", "dfs"}, dir / "small", failure, 60);
  EXPECT_FALSE(small.empty()) << failure;
  EXPECT_TRUE(has(cluster.cairn("status", {"--json", big}).output, "JOB_QUEUED")); // still

  ASSERT_TRUE(cluster.addWorker({"--max-memory", "4000"}));
  CommandResult waited = cluster.cairn("wait", {"--timeout", "60", big});
  ASSERT_EQ(waited.status, 0) << waited.output;
  status = cluster.cairn("status", {"--json", big}).output;
  EXPECT_TRUE(has(status, "JOB_COMPLETED")) << status;
  EXPECT_FALSE(has(status, "no worker offers")) << status;
}

// Each worker handed the item dies with it (killed here, as the kernel's out-of-memory killer
// would): after the third the job fails and says why, what it found stays, and the next job runs.
TEST_F(ServiceLimits, AnItemThatTakesDownEveryWorkerEndsItsJob) {
  Cluster cluster(dir / "cluster", workers(1));
  ASSERT_TRUE(cluster.ready());
  const std::string job = submit(cluster, kPrograms + "/many_paths.c", {"--cflag", "-DINPUTS=16"});
  for (int loss = 1; loss <= 3; ++loss) {
    // Running again: on the worker added last, since the one before was declared lost. The
    // first has sent results before it dies.
    std::string status = cluster.waitForStatus(job, 60, [&](const std::string &s) {
      return jsonNumber(s, "itemsRunning") == 1 && (loss > 1 || jsonNumber(s, "tests") > 0);
    });
    ASSERT_EQ(jsonNumber(status, "itemsRunning"), 1) << "loss " << loss << ": " << status;
    cluster.workers().back()->kill();
    if (loss == 3)
      break;
    status = cluster.waitForStatus(job, 30, [](const std::string &s) { return jsonNumber(s, "itemsRunning") == 0; });
    ASSERT_EQ(jsonNumber(status, "itemsRunning"), 0) << "loss " << loss << ": " << status;
    ASSERT_FALSE(has(status, "JOB_FAILED")) << "loss " << loss << ": " << status;
    ASSERT_TRUE(cluster.addWorker());
  }
  std::string status = cluster.waitForStatus(job, 30, [](const std::string &s) { return has(s, "JOB_FAILED"); });
  ASSERT_TRUE(has(status, "JOB_FAILED")) << status;
  EXPECT_TRUE(has(status, "was lost with its worker 3 times")) << status;
  EXPECT_GT(jsonNumber(status, "tests"), 0) << status; // kept
  CommandResult fetched = cluster.cairn("results", {"--output-dir", (dir / "kept").string(), job});
  EXPECT_EQ(fetched.status, 0) << fetched.output;

  ASSERT_TRUE(cluster.addWorker());
  std::string failure;
  const std::string next = cluster.runJob(kPrograms + "/heap_paths.c", {"--search", "dfs"}, dir / "next", failure, 60);
  EXPECT_FALSE(next.empty()) << failure;
}

} // namespace
