// Workers authenticate to a coordinator started with --worker-token-file: without the token a
// worker can neither register nor take work (UNAUTHENTICATED, saying what is needed); with it,
// it explores the job to its end.
#include "ServiceCluster.h"

#include "cairn/v1/coordinator.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
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

} // namespace
