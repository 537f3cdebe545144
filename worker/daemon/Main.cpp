// cairn-worker: explores a coordinator's work items with the engine. Logs on stderr; SIGINT or
// SIGTERM drops the item in hand (the coordinator hands it out again) and exits 0.
#include "Worker.h"

#include "cairn/solver/SolverChain.h"
#include "cairn/support/Daemon.h"
#include "cairn/support/TokenFile.h"
#include "grpc/health/v1/health.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

using namespace cairn;

namespace {

const char *kUsage = R"(usage: cairn-worker [options]
  --server HOST:PORT       the coordinator (default: $CAIRN_SERVER, else 127.0.0.1:7470)
  --solver-pool HOST:PORT[,HOST:PORT...]   solver pool replicas (default: solve in-process)
  --solver-pool-token-file FILE   send the token in FILE on every call to them (one their
                           --token-file accepts, by default their cairn-solver-pool.token)
  --name NAME              how the coordinator's logs name this worker (default: host:pid)
  --tls-ca FILE            the coordinator serves TLS; trust these PEM roots
  --token-file FILE        send the token in FILE on every call to the coordinator (one the
                           coordinator accepts: by default the token file beside its job store)
  --max-memory MB          the most memory one item may use here (default: three quarters of
                           the machine's, or of the container's limit): only jobs whose
                           --max-memory fits are run here, those without one under the engine's
                           default (4000) or this, the lower
  --health-listen HOST:PORT   serve gRPC's health service there (port 0: a free port, printed
                           as `health on HOST:PORT`)
  --log-level LEVEL        trace, debug, info (default), warn, error or off
)";

// gRPC's built-in health service needs another service beside it; a worker serves nothing
// else, so it answers health checks itself: SERVING until it stops.
class Health final : public grpc::health::v1::Health::Service {
public:
  grpc::Status Check(grpc::ServerContext *, const grpc::health::v1::HealthCheckRequest *request,
                     grpc::health::v1::HealthCheckResponse *response) override {
    if (!request->service().empty())
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "a worker serves only the health service");
    response->set_status(stopping ? grpc::health::v1::HealthCheckResponse::NOT_SERVING
                                  : grpc::health::v1::HealthCheckResponse::SERVING);
    return grpc::Status::OK;
  }
  std::atomic<bool> stopping{false};
};

const DaemonCommandLine kCommandLine{
    "cairn-worker",
    kUsage,
    {"--server", "--solver-pool", "--solver-pool-token-file", "--name", "--tls-ca", "--token-file", "--health-listen",
     "--log-level", "--max-memory"},
    {}};

} // namespace

int main(int argc, char **argv) {
  worker::WorkerOptions options;
  if (const char *env = std::getenv("CAIRN_SERVER"); env && *env)
    options.server = env;
  std::string logLevel = "info", healthListen;
  for (const auto &[a, value] : kCommandLine.parse(argc, argv)) {
    if (a == "--server") {
      options.server = value;
    } else if (a == "--solver-pool") {
      if (!parsePoolEndpoints(value, options.poolEndpoints))
        kCommandLine.fail("--solver-pool needs HOST:PORT[,HOST:PORT...], got '" + value + "'");
    } else if (a == "--name") {
      options.name = value;
    } else if (a == "--tls-ca") {
      options.tlsCa = value;
    } else if (a == "--token-file" || a == "--solver-pool-token-file") {
      try {
        (a == "--token-file" ? options.token : options.poolToken) = tokenFromFile(value);
      } catch (const TokenFileError &e) {
        kCommandLine.fail(a + ": " + e.what());
      }
    } else if (a == "--health-listen") {
      healthListen = value;
    } else if (a == "--max-memory") {
      char *end = nullptr;
      errno = 0;
      const unsigned long long mb = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])) || *end || errno || mb == 0)
        kCommandLine.fail("--max-memory needs a number of megabytes over 0, got '" + value + "'");
      options.maxMemoryMB = mb;
    } else {
      logLevel = value;
    }
  }
  if (!logToStderr("worker", logLevel))
    kCommandLine.fail("unknown log level '" + logLevel + "'");
  sigset_t stopSignals = blockStopSignals();

  std::unique_ptr<grpc::Server> health;
  Health healthService;
  if (!healthListen.empty()) {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort(healthListen, grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&healthService);
    health = builder.BuildAndStart();
    if (!health || port == 0) {
      spdlog::error("cannot listen on {}", healthListen);
      return 1;
    }
    std::printf("health on %s:%d\n", healthListen.substr(0, healthListen.rfind(':')).c_str(), port);
    std::fflush(stdout);
  }

  worker::Worker worker(options);
  std::thread signals([&] {
    int signal = 0;
    sigwait(&stopSignals, &signal);
    spdlog::info("{}: stopping", strsignal(signal));
    healthService.stopping = true;
    worker.stop();
  });
  signals.detach(); // it may wait for a signal that never comes
  worker.run();
  if (health)
    health->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  return 0;
}
