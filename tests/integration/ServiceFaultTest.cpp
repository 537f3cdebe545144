// Jobs survive the loss of processes: a worker killed mid-job (its item is explored again, its
// results are not duplicated), the coordinator killed and restarted (the job resumes from its
// store), a solver pool replica killed (workers ask the other one).
#include "ServiceCluster.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <regex>
#include <thread>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

const std::string kLongJob = std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c";

class ServiceFault : public ::testing::Test {
protected:
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("cairn-fault-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                  "-" + std::to_string(::getpid()));

  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  RunOutcome alone(const std::string &program) {
    fs::path out = dir / "alone";
    CommandResult r = runCommand({CAIRN_BIN, "run", "--search", "dfs", "--quiet", "--output-dir", out.string(), program});
    EXPECT_EQ(r.status, 0) << r.output;
    return outcomeOf(out);
  }

  std::string submit(Cluster &cluster, const std::string &program, const std::vector<std::string> &options = {}) {
    std::string failure;
    const std::string job = cluster.submitDfs(program, options, failure);
    EXPECT_FALSE(job.empty()) << failure;
    return job;
  }

  void finish(Cluster &cluster, const std::string &job, const RunOutcome &expected) {
    CommandResult waited = cluster.cairn("wait", {"--timeout", "150", job});
    ASSERT_EQ(waited.status, 0) << waited.output;
    fs::path out = dir / "job";
    CommandResult fetched = cluster.cairn("results", {"--output-dir", out.string(), job});
    ASSERT_EQ(fetched.status, 0) << fetched.output;
    EXPECT_EQ(describe(outcomeOf(out)), describe(expected));
  }
};

TEST_F(ServiceFault, WorkerKilledMidJob) {
  const RunOutcome expected = alone(kLongJob);
  Cluster cluster(dir / "cluster", ClusterOptions{});
  ASSERT_TRUE(cluster.ready());
  const std::string job = submit(cluster, kLongJob);
  // Every worker busy: the one killed holds an item.
  std::string status = cluster.waitForStatus(job, 60, [](const std::string &s) {
    return jsonNumber(s, "itemsRunning") == 3 && jsonNumber(s, "pathsCompleted") > 0;
  });
  ASSERT_EQ(jsonNumber(status, "itemsRunning"), 3) << status;
  cluster.workers()[0]->kill();
  finish(cluster, job, expected);
  const std::string metrics = httpGet(cluster.dashboard(), "/metrics");
  std::smatch reissued;
  ASSERT_TRUE(std::regex_search(metrics, reissued, std::regex("\ncairn_items_reissued_total ([0-9]+)"))) << metrics;
  EXPECT_GE(std::stoi(reissued[1]), 1); // the killed worker's item
}

TEST_F(ServiceFault, CoordinatorKilledAndRestartedResumes) {
  const RunOutcome expected = alone(kLongJob);
  Cluster cluster(dir / "cluster", ClusterOptions{});
  ASSERT_TRUE(cluster.ready());
  const std::string job = submit(cluster, kLongJob);
  std::string status = cluster.waitForStatus(job, 60, [](const std::string &s) {
    return jsonNumber(s, "itemsRunning") >= 2 && jsonNumber(s, "pathsCompleted") > 0;
  });
  ASSERT_GE(jsonNumber(status, "itemsRunning"), 2) << status;
  ASSERT_TRUE(cluster.restartCoordinator());
  status = cluster.cairn("status", {"--json", job}).output;
  EXPECT_NE(status.find("JOB_RUNNING"), std::string::npos) << status; // known after the restart
  finish(cluster, job, expected);
}

TEST_F(ServiceFault, PoolReplicaKilledWorkersCarryOn) {
  const std::string program = std::string(CAIRN_E2E_DIR) + "/regexp.c";
  const RunOutcome expected = alone(program);
  ClusterOptions options;
  options.poolReplicas = 2;
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  // Every query of regexp.c reads one input byte: without the byte-domain layer they all travel.
  const std::string job = submit(cluster, program, {"--no-byte-domain"});
  cluster.pool()[0]->kill();
  finish(cluster, job, expected);
  // The replica left answers what the job still asks.
  EXPECT_GT(cluster.pool()[1]->stats().requests(), 0u);
}

} // namespace
