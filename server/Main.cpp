// cairn-server: the coordinator. Serves the jobs API and the coordinator<->worker protocol on
// one gRPC port (with gRPC's health service), and the dashboard and metrics over HTTP. Prints
// `listening on HOST:PORT` and `dashboard on http://HOST:PORT/` on stdout once it serves; logs
// go to stderr. SIGINT or SIGTERM stops it; the job store keeps what a restart resumes.
#include "cairn/auth/BearerTokens.h"
#include "Dashboard.h"
#include "HttpServer.h"
#include "JobStore.h"
#include "Scheduler.h"
#include "Services.h"

#include "cairn/support/Daemon.h"
#include "cairn/support/TokenFile.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace cairn;
using namespace cairn::server;

namespace {

const char *kUsage = R"(usage: cairn-server [options]
  --listen HOST:PORT       gRPC address: jobs API and workers (default 127.0.0.1:7470; port 0:
                           a free port, printed as `listening on HOST:PORT`)
  --http HOST:PORT|off     dashboard and /metrics (default 127.0.0.1:7480; port 0: a free port)
  --db FILE                the job store, SQLite (default cairn-server.db)
  --token-file FILE        bearer tokens accepted on the jobs API, one a line (default: none
                           needed)
  --worker-token-file FILE bearer tokens accepted from workers, one a line (default: the
                           job store's path with `.worker-token` added, created with a fresh
                           256-bit token, mode 600, when it does not exist: give it to the
                           workers with their --token-file)
  --open-workers           accept workers with no token (a trusted network only)
  --tls-cert FILE --tls-key FILE   serve gRPC over TLS with this certificate chain and key
  --max-upload-mb MB       the largest program accepted (default 64)
  --heartbeat SECONDS      workers' heartbeat interval; three missed ones lose a worker (default 1)
  --work-dir DIR           where uploaded bitcode is loaded (default: the temp directory)
  --solver-pool HOST:PORT[,HOST:PORT...]  the solver pool the workers use: the dashboard shows
                           its replicas' cache hit rates (asked when the page asks)
  --solver-pool-token-file FILE   the token those replicas accept (their --token-file's)
  --log-level LEVEL        trace, debug, info (default), warn, error or off
)";

const DaemonCommandLine kCommandLine{
    "cairn-server", kUsage,
    {"--listen", "--http", "--db", "--token-file", "--worker-token-file", "--tls-cert", "--tls-key",
     "--max-upload-mb", "--heartbeat", "--work-dir", "--solver-pool",
     "--solver-pool-token-file", "--log-level"},
    {"--open-workers"}};

std::string readFile(const std::string &path, const char *what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    kCommandLine.fail(std::string("cannot read ") + what + " " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

int main(int argc, char **argv) {
  std::string listen = "127.0.0.1:7470", http = "127.0.0.1:7480", db = "cairn-server.db";
  std::string tokenFile, workerTokenFile, tlsCert, tlsKey, logLevel = "info";
  std::string workDir = std::filesystem::temp_directory_path().string();
  std::vector<std::string> solverPool;
  std::string solverPoolTokenFile;
  double maxUploadMB = 64, heartbeat = 1;
  bool openWorkers = false;
  for (const auto &[flag, value] : kCommandLine.parse(argc, argv)) {
    if (flag == "--listen") listen = value;
    else if (flag == "--http") http = value;
    else if (flag == "--db") db = value;
    else if (flag == "--token-file") tokenFile = value;
    else if (flag == "--worker-token-file") workerTokenFile = value;
    else if (flag == "--tls-cert") tlsCert = value;
    else if (flag == "--tls-key") tlsKey = value;
    else if (flag == "--max-upload-mb") maxUploadMB = kCommandLine.number(flag, value);
    else if (flag == "--heartbeat") heartbeat = kCommandLine.number(flag, value);
    else if (flag == "--work-dir") workDir = value;
    else if (flag == "--open-workers") openWorkers = true;
    else if (flag == "--solver-pool-token-file") solverPoolTokenFile = value;
    else if (flag == "--solver-pool") {
      std::stringstream list(value);
      for (std::string address; std::getline(list, address, ',');)
        if (!address.empty())
          solverPool.push_back(address);
    }
    else logLevel = value;
  }
  if (tlsCert.empty() != tlsKey.empty())
    kCommandLine.fail("--tls-cert and --tls-key go together");
  if (!logToStderr("server", logLevel))
    kCommandLine.fail("unknown log level '" + logLevel + "'");

  JobsServiceOptions jobsOptions;
  jobsOptions.maxUploadBytes = size_t(maxUploadMB * double(1 << 20));
  jobsOptions.workDir = workDir;
  auto tokensOf = [](const std::string &file, const char *option) {
    std::set<std::string> tokens;
    if (file.empty())
      return tokens;
    tokens = auth::parseTokens(readFile(file, "token file"));
    if (tokens.empty())
      kCommandLine.fail(std::string(option) + ": token file " + file + " holds no token");
    return tokens;
  };
  jobsOptions.tokens = tokensOf(tokenFile, "--token-file");
  if (openWorkers && !workerTokenFile.empty())
    kCommandLine.fail("--open-workers and --worker-token-file exclude each other");
  std::set<std::string> workerTokens;
  if (!workerTokenFile.empty()) {
    workerTokens = tokensOf(workerTokenFile, "--worker-token-file");
  } else if (!openWorkers) {
    // Workers authenticate by default: the coordinator's own token, kept beside its job store
    // so that a restart keeps its workers.
    workerTokenFile = db + ".worker-token";
    try {
      workerTokens.insert(tokenFileOrCreate(workerTokenFile));
    } catch (const TokenFileError &e) {
      spdlog::error("{} (or give --worker-token-file FILE, or --open-workers on a trusted network)", e.what());
      return 1;
    }
  }

  sigset_t stopSignals = blockStopSignals();

  std::unique_ptr<JobStore> store;
  try {
    store = std::make_unique<JobStore>(db);
  } catch (const StoreError &e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  SchedulerOptions schedulerOptions;
  schedulerOptions.heartbeatSeconds = heartbeat;
  Scheduler scheduler(*store, schedulerOptions);
  JobsService jobs(scheduler, jobsOptions);
  CoordinatorService coordinator(scheduler, workerTokens);

  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
  if (!tlsCert.empty()) {
    grpc::SslServerCredentialsOptions ssl;
    ssl.pem_key_cert_pairs.push_back({readFile(tlsKey, "TLS key"), readFile(tlsCert, "TLS certificate")});
    credentials = grpc::SslServerCredentials(ssl);
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen, credentials, &port);
  builder.RegisterService(&jobs);
  builder.RegisterService(&coordinator);
  // Room for the largest program and its envelope; the service itself refuses what is over the
  // limit with a message that says so.
  builder.SetMaxReceiveMessageSize(int(std::min<double>(maxUploadMB * 2 * double(1 << 20) + (1 << 20), 2e9)));
  builder.SetMaxSendMessageSize(1 << 30);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    spdlog::error("cannot listen on {}", listen);
    return 1;
  }
  grpc::HealthCheckServiceInterface *health = server->GetHealthCheckService();
  health->SetServingStatus(v1::Jobs::service_full_name(), true);
  health->SetServingStatus(v1::Coordinator::service_full_name(), true);

  DashboardOptions dashboardOptions;
  dashboardOptions.tokens = jobsOptions.tokens; // job data over HTTP follows the jobs API's policy
  dashboardOptions.solverPool = solverPool;
  if (!solverPoolTokenFile.empty()) {
    try {
      dashboardOptions.solverPoolToken = tokenFromFile(solverPoolTokenFile);
    } catch (const TokenFileError &e) {
      kCommandLine.fail(std::string("--solver-pool-token-file: ") + e.what());
    }
  }
  Dashboard pages(scheduler, std::move(dashboardOptions));
  std::unique_ptr<HttpServer> dashboard;
  std::string host = listen.substr(0, listen.rfind(':'));
  std::printf("listening on %s:%d\n", host.c_str(), port);
  if (http != "off") {
    try {
      dashboard = std::make_unique<HttpServer>(http, [&](const HttpRequest &request) { return pages.serve(request); });
    } catch (const std::exception &e) {
      spdlog::error("{}", e.what());
      return 1;
    }
    std::printf("dashboard on http://%s:%d/\n", http.substr(0, http.rfind(':')).c_str(), dashboard->port());
  }
  std::fflush(stdout);
  spdlog::info("serving on {}:{}{}", host, port, tlsCert.empty() ? "" : " (TLS)");
  if (workerTokens.empty())
    spdlog::warn("workers are not authenticated (--open-workers): trusted network only");
  else
    spdlog::info("workers authenticate with a token of {} (their --token-file)", workerTokenFile);

  std::atomic<bool> stopping{false};
  std::thread monitor([&] {
    while (!stopping) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      scheduler.checkWorkers();
    }
  });
  int signal = 0;
  sigwait(&stopSignals, &signal);
  spdlog::info("{}: stopping", strsignal(signal));
  stopping = true;
  health->Shutdown();
  jobs.stop();
  coordinator.stop();
  scheduler.stop();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  monitor.join();
  dashboard.reset();
  return 0;
}
