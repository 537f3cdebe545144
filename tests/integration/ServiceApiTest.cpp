// Bad input over the jobs API gets a clear gRPC status, and the coordinator keeps serving; the
// dashboard and the metrics are served over HTTP.
#include "ServiceCluster.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

class ServiceApi : public ::testing::Test {
protected:
  fs::path dir = fs::path(::testing::TempDir()) / ("cairn-api-" + std::to_string(::getpid()));
  void SetUp() override {
    fs::create_directories(dir);
    std::ofstream(dir / "tokens") << "sesame\n";
  }
  void TearDown() override { fs::remove_all(dir); }

  fs::path write(const std::string &name, const std::string &bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return dir / name;
  }
};

TEST_F(ServiceApi, BadInputGetsAClearStatusAndTheCoordinatorServesOn) {
  ClusterOptions options;
  options.workers = 1;
  options.poolReplicas = 0;
  options.serverArgs = {"--token-file", (dir / "tokens").string(), "--max-upload-mb", "1"};
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  const std::string token = "--token-file=" + (dir / "tokens").string();
  const std::string good = std::string(CAIRN_EXAMPLES_DIR) + "/sign.c";
  auto expectRefused = [&](const std::vector<std::string> &args, const std::string &code,
                           const std::string &words, const std::string &command = "submit") {
    CommandResult r = cluster.cairn(command, args);
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find(code), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(words), std::string::npos) << r.output;
  };

  expectRefused({good}, "UNAUTHENTICATED", "bearer token");
  std::ofstream(dir / "wrong") << "open\n";
  expectRefused({"--token-file", (dir / "wrong").string(), good}, "UNAUTHENTICATED", "bearer token");
  expectRefused({token, write("garbage.bc", std::string("BC\xc0\xde garbage \x01\x02\x03", 16)).string()},
                "INVALID_ARGUMENT", "garbage.bc");
  // C source is compiled by the client: its compiler's words, before anything is sent.
  expectRefused({token, write("broken.c", "int main(void) { return x; }\n").string()}, "broken.c",
                "undeclared identifier");
  expectRefused({token, "--option", "--frobnicate", good}, "INVALID_ARGUMENT", "unknown option '--frobnicate'");
  expectRefused({token, "--entry", "nowhere", good}, "sign.c", "no definition of the entry function 'nowhere'");
  // Engine flags are checked at submission with cairn run's words.
  expectRefused({token, "--capacity", "5", good}, "INVALID_ARGUMENT",
                "--size-mode and --capacity need --size-model symbolic");
  expectRefused({token, "--option", "--max-time=soon", good}, "INVALID_ARGUMENT",
                "--max-time needs a number of seconds, got 'soon'");
  expectRefused({token, "--address-aware-cache", good}, "INVALID_ARGUMENT",
                "--address-aware-cache needs --memory-model relocatable");
  expectRefused({token, "--context-resolve", "2", good}, "INVALID_ARGUMENT", "--context-resolve needs --merge-objects");
  expectRefused({token, "--json", good}, "INVALID_ARGUMENT", "--json does not apply to a job");
  expectRefused({token, "--solver-pool", "127.0.0.1:1", good}, "INVALID_ARGUMENT",
                "--solver-pool does not apply to a job");
  expectRefused({token, write("big.bc", std::string("BC\xc0\xde", 4) + std::string(2 << 20, ' ')).string()},
                "RESOURCE_EXHAUSTED", "upload limit");
  // --file's contents count with the program; the file is read here, a bad one refused here.
  expectRefused({token, "--libc", "full", "--file", "big=" + write("big.txt", std::string(2 << 20, 'x')).string(), good},
                "RESOURCE_EXHAUSTED", "the program and its --file files are");
  CommandResult unread = cluster.cairn("submit", {token, "--libc", "full", "--file",
                                                  "big=" + (dir / "missing.txt").string(), good});
  EXPECT_EQ(unread.status, 2) << unread.output; // a usage error, as under cairn run
  EXPECT_NE(unread.output.find("--file: cannot read"), std::string::npos) << unread.output;
  expectRefused({token, "no-such-job"}, "NOT_FOUND", "no-such-job", "status");

  // Still serving: a good job runs to its end.
  CommandResult submitted = cluster.cairn("submit", {token, "--search", "dfs", good});
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  CommandResult waited = cluster.cairn("wait", {token, "--timeout", "60", job});
  EXPECT_EQ(waited.status, 0) << waited.output;
  EXPECT_NE(waited.output.find("paths 3 completed"), std::string::npos) << waited.output;
  EXPECT_EQ(waitServing(cluster.server(), "cairn.v1.Jobs", 5), 1);
  EXPECT_EQ(waitServing(cluster.server(), "cairn.v1.Coordinator", 5), 1);
  EXPECT_EQ(waitServing(cluster.workers()[0]->endpoint(), "", 5), 1);

  // The dashboard's endpoints. Job data over HTTP needs the jobs API's token as gRPC does; the
  // page itself (no job data) and /healthz do not.
  EXPECT_NE(httpGet(cluster.dashboard(), "/").find("Cairn jobs"), std::string::npos);
  EXPECT_EQ(httpGet(cluster.dashboard(), "/healthz"), "ok\n");
  for (const std::string &path : {std::string("/api/jobs"), "/api/jobs/" + job, "/api/jobs/" + job + "/detail", std::string("/api/workers")}) {
    HttpReply refused = httpFetch(cluster.dashboard(), path);
    EXPECT_EQ(refused.status, 401) << path << ": " << refused.body;
    EXPECT_EQ(refused.body.find(job + "\""), std::string::npos) << refused.body;
    EXPECT_EQ(httpFetch(cluster.dashboard(), path, "open").status, 401) << path;
  }
  const std::string jobs = httpGet(cluster.dashboard(), "/api/jobs", "sesame");
  EXPECT_NE(jobs.find(job), std::string::npos) << jobs;
  const std::string status = httpGet(cluster.dashboard(), "/api/jobs/" + job, "sesame");
  EXPECT_NE(status.find("JOB_COMPLETED"), std::string::npos) << status;
  EXPECT_EQ(jsonNumber(status, "pathsCompleted"), 3) << status;
  const std::string metrics = httpGet(cluster.dashboard(), "/metrics", "sesame");
  EXPECT_NE(metrics.find("cairn_jobs{state=\"completed\"} 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("cairn_workers 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("cairn_job_paths_completed{job=\"" + job + "\"} 3"), std::string::npos) << metrics;
  // Without the token, /metrics has the counts but no series that names a job.
  const std::string anonymous = httpGet(cluster.dashboard(), "/metrics");
  EXPECT_NE(anonymous.find("cairn_jobs{state=\"completed\"} 1"), std::string::npos) << anonymous;
  EXPECT_EQ(anonymous.find(job), std::string::npos) << anonymous;
}

TEST_F(ServiceApi, CancelledJobEnds) {
  ClusterOptions options;
  options.workers = 1;
  options.poolReplicas = 0;
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  CommandResult submitted = cluster.cairn("submit", {std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c"});
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  CommandResult cancelled = cluster.cairn("cancel", {job});
  EXPECT_EQ(cancelled.status, 0) << cancelled.output;
  CommandResult waited = cluster.cairn("wait", {"--timeout", "30", job});
  EXPECT_EQ(waited.status, 1) << waited.output; // ended, not completed
  EXPECT_NE(waited.output.find("cancelled"), std::string::npos) << waited.output;
  // The worker is free for the next job.
  submitted = cluster.cairn("submit", {std::string(CAIRN_EXAMPLES_DIR) + "/sign.c"});
  const std::string next = submitted.output.substr(0, submitted.output.find('\n'));
  EXPECT_EQ(cluster.cairn("wait", {"--timeout", "60", next}).status, 0);
}

} // namespace

namespace {

// The dashboard page in a real browser: headless Chromium loads it, its script polls the JSON
// endpoints, and the page shows the running job's progress.
TEST_F(ServiceApi, DashboardShowsARunningJobInChromium) {
  std::string chromium = "/usr/bin/chromium";
  if (const char *env = std::getenv("CAIRN_CHROMIUM"); env && *env)
    chromium = env;
  if (::access(chromium.c_str(), X_OK) != 0)
    GTEST_SKIP() << "no Chromium at " << chromium
                 << ": deploy/bootstrap.sh test installs Debian's chromium package when it can";
  ClusterOptions options;
  options.workers = 1;
  options.poolReplicas = 0;
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  // 2^16 paths: still running when Chromium has loaded the page, however fast the machine
  // (2^12 were done in about 3 s, before the page had been dumped).
  CommandResult submitted = cluster.cairn("submit", {"--name", "dashboard-demo", "--cflag", "-DINPUTS=16",
                                                     std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c"});
  ASSERT_EQ(submitted.status, 0) << submitted.output;
  const std::string job = submitted.output.substr(0, submitted.output.find('\n'));
  // Running, with progress to show.
  std::string status;
  for (int i = 0; i < 300; ++i) {
    status = cluster.cairn("status", {"--json", job}).output;
    if (status.find("JOB_RUNNING") != std::string::npos && jsonNumber(status, "pathsCompleted") > 0)
      break;
    ::usleep(100 * 1000);
  }
  ASSERT_NE(status.find("JOB_RUNNING"), std::string::npos) << status;
  // Chromium's complaints (no D-Bus in a container, ...) stay out of the test's output.
  CommandResult page = runCommand({"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>/dev/null", chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                   "--user-data-dir=" + (dir / "chromium").string(),
                                   "--virtual-time-budget=5000", "--dump-dom",
                                   "http://" + cluster.dashboard() + "/"});
  ASSERT_EQ(page.status, 0) << page.output;
  // The jobs table lists it, running; the job's panel shows its progress.
  EXPECT_NE(page.output.find("data-id=\"" + job + "\""), std::string::npos) << page.output;
  EXPECT_NE(page.output.find("dashboard-demo"), std::string::npos) << page.output;
  EXPECT_NE(page.output.find("<b>running</b>"), std::string::npos) << page.output;
  std::smatch paths;
  ASSERT_TRUE(std::regex_search(page.output, paths, std::regex("paths completed <b>([0-9]+)</b>"))) << page.output;
  EXPECT_GT(std::stoll(paths[1]), 0);
  cluster.cairn("cancel", {job});
}

} // namespace

namespace {

// With a certificate configured, the coordinator speaks TLS only: workers and clients that trust
// it run jobs, a client that does not is refused.
TEST_F(ServiceApi, TlsWhenCertificatesAreConfigured) {
  const std::string key = (dir / "key.pem").string(), cert = (dir / "cert.pem").string();
  CommandResult made = runWithStderr({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                      "-keyout", key, "-out", cert, "-subj", "/CN=localhost",
                                      "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"});
  if (made.status != 0)
    GTEST_SKIP() << "openssl could not make a certificate: " << made.output;
  ClusterOptions options;
  options.workers = 1;
  options.poolReplicas = 0;
  options.tlsCert = cert;
  options.tlsKey = key;
  options.tlsCa = cert;
  Cluster cluster(dir / "cluster", options);
  ASSERT_TRUE(cluster.ready());
  std::string failure;
  std::string job = cluster.runJob(std::string(CAIRN_EXAMPLES_DIR) + "/sign.c", {"--search", "dfs"}, dir / "out", failure, 60);
  ASSERT_FALSE(job.empty()) << failure;
  EXPECT_EQ(outcomeOf(dir / "out").pathsCompleted, "3");
  CommandResult plain = runWithStderr({CAIRN_BIN, "status", "--server", cluster.server(), job});
  EXPECT_EQ(plain.status, 1) << plain.output;
  EXPECT_NE(plain.output.find("UNAVAILABLE"), std::string::npos) << plain.output;
}

} // namespace
