// Workers authenticate to a coordinator started with --worker-token-file: without the token a
// worker can neither register nor take work (UNAUTHENTICATED, saying what is needed); with it,
// it explores the job to its end. A coordinator given no worker tokens makes its own: workers
// authenticate by default, and only --open-workers lets any worker in.
#include "ServiceCluster.h"

#include "cairn/v1/coordinator.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

using namespace cairn;
using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

grpc::Status registerWith(v1::Coordinator::Stub &stub, const std::string &token) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  if (!token.empty())
    context.AddMetadata("authorization", "Bearer " + token);
  v1::RegisterWorkerRequest request;
  request.set_name("probe");
  request.set_slots(1);
  v1::RegisterWorkerResponse response;
  return stub.RegisterWorker(&context, request, &response);
}

TEST(ServiceAuth, WorkersNeedTheTokenToRegisterAndTakeWork) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cairn-auth-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "worker-tokens") << "first-token\n  second-token  \n\n";
  std::ofstream(dir / "good") << "second-token\n";
  std::ofstream(dir / "wrong") << "guess\n";
  ClusterOptions options;
  options.workers = 0;
  options.poolReplicas = 0;
  options.serverArgs = {"--worker-token-file", (dir / "worker-tokens").string()};
  options.workerArgs = {"--token-file", (dir / "good").string()};
  {
    Cluster cluster(dir / "cluster", options);
    ASSERT_TRUE(cluster.ready());

    // The protocol itself: no token or a wrong one is refused with a message that says why.
    auto stub = v1::Coordinator::NewStub(grpc::CreateChannel(cluster.server(), grpc::InsecureChannelCredentials()));
    for (const std::string &token : {std::string(), std::string("guess")}) {
      grpc::Status s = registerWith(*stub, token);
      EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << token;
      EXPECT_NE(s.error_message().find("worker token"), std::string::npos) << s.error_message();
    }
    {
      grpc::ClientContext context;
      v1::GetWorkRequest request;
      request.set_worker_id("w1");
      v1::GetWorkResponse response;
      EXPECT_EQ(stub->GetWork(&context, request, &response).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    }
    EXPECT_TRUE(registerWith(*stub, "first-token").ok());

    // A worker process with a wrong token takes nothing: the job waits.
    Daemon intruder({CAIRN_WORKER_BIN, "--server", cluster.server(), "--health-listen", "127.0.0.1:0",
                     "--token-file", (dir / "wrong").string(), "--log-level", "off"},
                    "health on ");
    ASSERT_TRUE(intruder.ready());
    CommandResult submitted = cluster.cairn("submit", {"--search", "dfs", std::string(CAIRN_EXAMPLES_DIR) + "/sign.c"});
    ASSERT_EQ(submitted.status, 0) << submitted.output;
    const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
    std::this_thread::sleep_for(std::chrono::seconds(3));
    std::string status = cluster.cairn("status", {"--json", job}).output;
    EXPECT_EQ(jsonNumber(status, "itemsDone"), 0) << status;
    EXPECT_EQ(jsonNumber(status, "itemsRunning"), 0) << status;
    EXPECT_EQ(jsonNumber(status, "pathsCompleted"), 0) << status;

    // A worker with the token explores it to its end.
    ASSERT_TRUE(cluster.addWorker());
    CommandResult waited = cluster.cairn("wait", {"--timeout", "60", job});
    EXPECT_EQ(waited.status, 0) << waited.output;
    EXPECT_NE(waited.output.find("paths 3 completed"), std::string::npos) << waited.output;
  }
  fs::remove_all(dir);
}

TEST(ServiceAuth, ACoordinatorGivenNoWorkerTokenMakesItsOwnAndKeepsItAcrossRestarts) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cairn-auth-default-" + std::to_string(::getpid()));
  ClusterOptions options;
  options.workers = 0;
  options.poolReplicas = 0;
  {
    Cluster cluster(dir, options);
    ASSERT_TRUE(cluster.ready());
    const fs::path tokenFile = cluster.defaultWorkerTokenFile();
    struct stat st {};
    ASSERT_EQ(::stat(tokenFile.c_str(), &st), 0) << tokenFile;
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    const std::string text = readText(tokenFile);
    ASSERT_TRUE(std::regex_match(text, std::regex("[0-9a-f]{64}\n"))) << text;
    const std::string token = text.substr(0, 64);

    auto stub = v1::Coordinator::NewStub(grpc::CreateChannel(cluster.server(), grpc::InsecureChannelCredentials()));
    EXPECT_EQ(registerWith(*stub, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(registerWith(*stub, token.substr(0, 63)).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_TRUE(registerWith(*stub, token).ok());

    // Restarted on the same job store, it takes the same token again, and its workers finish a job.
    ASSERT_TRUE(cluster.restartCoordinator());
    EXPECT_EQ(readText(tokenFile), text);
    auto again = v1::Coordinator::NewStub(grpc::CreateChannel(cluster.server(), grpc::InsecureChannelCredentials()));
    EXPECT_TRUE(registerWith(*again, token).ok());
    ASSERT_TRUE(cluster.addWorker());
    CommandResult submitted = cluster.cairn("submit", {"--search", "dfs", std::string(CAIRN_EXAMPLES_DIR) + "/sign.c"});
    ASSERT_EQ(submitted.status, 0) << submitted.output;
    const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
    CommandResult waited = cluster.cairn("wait", {"--timeout", "60", job});
    EXPECT_EQ(waited.status, 0) << waited.output;
  }
  fs::remove_all(dir);
}

TEST(ServiceAuth, ATokenFileOthersMayReadIsRefusedAndOpenWorkersIsExplicit) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cairn-auth-open-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path db = dir / "jobs.db";
  {
    std::ofstream(dir / "jobs.db.worker-token") << "0123456789abcdef\n";
    fs::permissions(dir / "jobs.db.worker-token", fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
    CommandResult refused = runWithStderr({CAIRN_SERVER_BIN, "--listen", "127.0.0.1:0", "--http", "off", "--db", db.string()});
    EXPECT_EQ(refused.status, 1) << refused.output;
    EXPECT_NE(refused.output.find("chmod 600"), std::string::npos) << refused.output;
    EXPECT_EQ(refused.output.find("0123456789abcdef"), std::string::npos) << refused.output;

    CommandResult both = runWithStderr({CAIRN_SERVER_BIN, "--open-workers", "--worker-token-file", (dir / "x").string()});
    EXPECT_EQ(both.status, 2) << both.output;
    EXPECT_NE(both.output.find("exclude each other"), std::string::npos) << both.output;
  }
  {
    ClusterOptions options;
    options.workers = 0;
    options.poolReplicas = 0;
    options.serverArgs = {"--open-workers"};
    Cluster cluster(dir / "open", options);
    ASSERT_TRUE(cluster.ready());
    EXPECT_FALSE(fs::exists(cluster.defaultWorkerTokenFile()));
    auto stub = v1::Coordinator::NewStub(grpc::CreateChannel(cluster.server(), grpc::InsecureChannelCredentials()));
    EXPECT_TRUE(registerWith(*stub, "").ok());
  }
  fs::remove_all(dir);
}

// deploy/local-cluster.sh as a user runs it: its workers authenticate with the coordinator's own
// token and the solver pool's, which no other user can read, and finish a job; a caller without
// the coordinator's token is refused.
TEST(ServiceAuth, TheLocalClusterScriptsWorkersAuthenticateByDefault) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cairn-local-cluster-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto script = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {"env", "CAIRN_BUILD_DIR=" CAIRN_BUILD_DIR, "CAIRN_CLUSTER_DIR=" + dir.string(),
                                     CAIRN_DEPLOY_DIR "/local-cluster.sh"};
    argv.insert(argv.end(), args.begin(), args.end());
    return runWithStderr(argv);
  };
  CommandResult started = script({"start", "--workers", "1", "--pool-threads", "1"});
  ASSERT_EQ(started.status, 0) << started.output;
  std::smatch m;
  const bool found = std::regex_search(started.output, m, std::regex("CAIRN_SERVER=(\\S+)"));
  if (found) {
    const std::string server = m[1];
    struct stat st {};
    EXPECT_EQ(::stat((dir / "jobs.db.worker-token").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    auto stub = v1::Coordinator::NewStub(grpc::CreateChannel(server, grpc::InsecureChannelCredentials()));
    EXPECT_EQ(registerWith(*stub, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
    CommandResult submitted =
        runWithStderr({CAIRN_BIN, "submit", "--server", server, "--search", "dfs", CAIRN_EXAMPLES_DIR "/sign.c"});
    EXPECT_EQ(submitted.status, 0) << submitted.output;
    const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
    CommandResult waited = runWithStderr({CAIRN_BIN, "wait", "--server", server, "--timeout", "60", job});
    EXPECT_EQ(waited.status, 0) << waited.output;
    EXPECT_NE(waited.output.find("paths 3 completed"), std::string::npos) << waited.output;
    // The pool's own token, which the workers send: none of them was refused by it.
    EXPECT_EQ(::stat((dir / "cairn-solver-pool.token").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    std::ifstream log(dir / "worker-1.log");
    const std::string workerLog((std::istreambuf_iterator<char>(log)), {});
    EXPECT_EQ(workerLog.find("token"), std::string::npos) << workerLog;
  }
  CommandResult stopped = script({"stop"});
  EXPECT_EQ(stopped.status, 0) << stopped.output;
  EXPECT_TRUE(found) << started.output;
  fs::remove_all(dir);
}

} // namespace
