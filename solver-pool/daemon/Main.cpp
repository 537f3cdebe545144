// cairn-solver-pool: one replica of the solver pool. Prints `listening on HOST:PORT` on stdout
// once it serves (the port it got when asked for port 0), logs on stderr, and on SIGINT or
// SIGTERM stops taking queries, finishes those being solved and exits 0; a second signal exits
// at once.
#include "PoolService.h"

#include "cairn/auth/BearerTokens.h"
#include "cairn/support/Daemon.h"
#include "cairn/support/TokenFile.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

using namespace cairn;

namespace {

const char *kUsage = R"(usage: cairn-solver-pool [options]
  --listen HOST:PORT       address to serve on (default 127.0.0.1:7471); port 0 picks a free
                           port, printed as `listening on HOST:PORT`
  --solver z3|cvc5|portfolio   the core solver (default z3)
  --float-solver z3|cvc5|portfolio   for queries with floating-point terms (default: cvc5
                           when --solver is z3, else --solver's)
  --timeout SECONDS        the most time one query may take (default 30; 0: no limit)
  --threads N              lanes: queries solved at once (default: the number of cores)
  --cache-mb MB            the shared answer cache's budget (default 256; 0: no cache)
  --isolate-solver         run each lane's solver in a child process
  --address-aware-cache    answer queries equal up to a renaming of symbolic bases to one
                           asked before (from clients run with --address-aware-cache)
  --array-solver plain|typed  typed: array reads solved by abstraction and refinement with
                           axioms pruned by the element widths clients send (default plain)
  --array-precheck         decide array queries UNSAT by an integer over-approximation first
  --array-refinement reads|axioms   typed: a read a model gets wrong is tied to its array
                           whole (default), or given the one pool axiom it violates
  --array-bounds propagation|relaxed|integer|glpk|cbc   how the array layer bounds
                           indices: through the linearised constraints (default), Z3's
                           linear relaxation, Z3's integer optimisation, GLPK's exact
                           simplex over the relaxation, or CBC's integer optimisation
  --token-file FILE        bearer tokens accepted from clients, one a line (default:
                           cairn-solver-pool.token in the working directory, created with a
                           fresh 256-bit token, mode 600, when it does not exist: give it to
                           the clients with their --solver-pool-token-file)
  --open-clients           accept clients with no token (a trusted network only)
  --log-level LEVEL        trace, debug, info (default), warn, error or off
)";

struct Options {
  std::string listen = "127.0.0.1:7471";
  std::string solver = "z3";
  pool::PoolServiceOptions service;
  std::string logLevel = "info";
  std::string tokenFile;
  bool openClients = false;
};

const DaemonCommandLine kCommandLine{"cairn-solver-pool", kUsage,
                                     {"--listen", "--solver", "--float-solver", "--timeout", "--threads", "--cache-mb", "--token-file", "--log-level",
                                      "--array-solver", "--array-refinement", "--array-bounds"},
                                     {"--isolate-solver", "--address-aware-cache", "--open-clients", "--array-precheck"}};

Options parseOptions(int argc, char **argv) {
  Options o;
  o.service.lanes = std::max(1u, std::thread::hardware_concurrency());
  o.service.maxTimeoutSeconds = 30;
  for (const auto &[a, value] : kCommandLine.parse(argc, argv)) {
    if (a == "--isolate-solver") {
      o.service.lane.isolateCore = true;
      continue;
    }
    if (a == "--address-aware-cache") {
      o.service.lane.addressCache = true;
      continue;
    }
    if (a == "--array-precheck") {
      o.service.lane.arrays.precheck = true;
      continue;
    }
    if (a == "--array-solver") {
      if (value != "plain" && value != "typed")
        kCommandLine.fail("unknown array solver '" + value + "' (plain or typed)");
      o.service.lane.arrays.typed = value == "typed";
      continue;
    }
    if (a == "--array-refinement") {
      if (!parseArrayRefinement(value, o.service.lane.arrays.axiomsBeforeWholeRead))
        kCommandLine.fail("unknown array refinement '" + value + "' (reads or axioms)");
      continue;
    }
    if (a == "--array-bounds") {
      if (!parseArrayBounds(value, o.service.lane.arrays.bounds))
        kCommandLine.fail("unknown array bounds '" + value + "' (propagation, relaxed, integer, glpk or cbc)");
      continue;
    }
    if (a == "--open-clients") {
      o.openClients = true;
      continue;
    }
    if (a == "--listen") {
      std::vector<std::string> parsed;
      if (!parsePoolEndpoints(value, parsed) || parsed.size() != 1)
        kCommandLine.fail("--listen needs HOST:PORT, got '" + value + "'");
      o.listen = value;
    } else if (a == "--solver") {
      if (!parseCoreSolverKind(value, o.service.lane.core))
        kCommandLine.fail("unknown solver '" + value + "' (z3, cvc5 or portfolio)");
      o.solver = value;
    } else if (a == "--float-solver") {
      CoreSolverKind kind;
      if (!parseCoreSolverKind(value, kind))
        kCommandLine.fail("unknown solver '" + value + "' for --float-solver (z3, cvc5 or portfolio)");
      o.service.lane.floatCore = kind;
    } else if (a == "--timeout") {
      o.service.maxTimeoutSeconds = kCommandLine.number(a, value, true);
    } else if (a == "--threads") {
      double n = kCommandLine.number(a, value, true);
      if (n < 1 || n != double(size_t(n)))
        kCommandLine.fail("--threads needs a whole number of at least 1, got '" + value + "'");
      o.service.lanes = size_t(n);
    } else if (a == "--token-file") {
      o.tokenFile = value;
    } else if (a == "--cache-mb") {
      o.service.cacheBytes = uint64_t(kCommandLine.number(a, value, true) * double(1 << 20));
    } else {
      o.logLevel = value;
    }
  }
  return o;
}

std::string hostOf(const std::string &address) { return address.substr(0, address.rfind(':')); }

std::string readTokenFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read the token file " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  if (!logToStderr("solver-pool", options.logLevel))
    kCommandLine.fail("unknown log level '" + options.logLevel + "'");

  // Signals are taken by sigwait below, never delivered to a thread: block them before any
  // thread starts, so that every thread inherits the mask.
  // Clients authenticate by default: given no token file, the pool makes its own.
  if (options.openClients && !options.tokenFile.empty())
    kCommandLine.fail("--open-clients and --token-file exclude each other");
  std::string tokenFile = options.tokenFile;
  try {
    if (!tokenFile.empty()) {
      options.service.tokens = auth::parseTokens(readTokenFile(tokenFile));
      if (options.service.tokens.empty())
        kCommandLine.fail("--token-file: " + tokenFile + " holds no token");
    } else if (!options.openClients) {
      tokenFile = "cairn-solver-pool.token";
      options.service.tokens.insert(tokenFileOrCreate(tokenFile));
    }
  } catch (const std::exception &e) {
    spdlog::error("{} (or give --token-file FILE, or --open-clients on a trusted network)", e.what());
    return 1;
  }

  sigset_t stopSignals = blockStopSignals();

  pool::PoolService service(options.service);
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen, grpc::InsecureServerCredentials(), &port);
  service.registerWith(builder);
  builder.SetMaxReceiveMessageSize(256 << 20);
  builder.SetMaxSendMessageSize(256 << 20);
  // RemoteSolver pings every 10 s while it waits for an answer, to notice a replica that hangs;
  // gRPC's default would take those pings for abuse and drop the connection.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 5000);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    spdlog::error("cannot listen on {}", options.listen);
    return 1;
  }
  service.start();
  grpc::HealthCheckServiceInterface *health = server->GetHealthCheckService();
  health->SetServingStatus(v1::SolverPool::service_full_name(), true);

  const std::string address = hostOf(options.listen) + ":" + std::to_string(port);
  std::printf("listening on %s\n", address.c_str());
  std::fflush(stdout);
  spdlog::info("serving on {}: {} lanes, {} solver, time limit {}, cache {} MB{}", address,
               options.service.lanes, options.solver,
               options.service.maxTimeoutSeconds > 0
                   ? fmt::format("{:g} s", options.service.maxTimeoutSeconds)
                   : std::string("none"),
               options.service.cacheBytes >> 20,
               options.service.lane.addressCache ? ", address-aware cache" : "");
  if (options.service.tokens.empty())
    spdlog::warn("clients are not authenticated (--open-clients): trusted network only");
  else
    spdlog::info("clients authenticate with a token of {} (their --solver-pool-token-file)", tokenFile);

  int signal = 0;
  sigwait(&stopSignals, &signal);
  spdlog::info("{}: stopping", strsignal(signal));

  // Stopping may wait for queries being solved (at most their time limit); a second signal
  // does not wait.
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    health->Shutdown(); // probes see NOT_SERVING from here on
    service.stop();
    server->Shutdown();
    service.join();
    stopped = true;
  });
  while (!stopped) {
    timespec poll{0, 50 * 1000 * 1000};
    if (sigtimedwait(&stopSignals, nullptr, &poll) > 0) {
      spdlog::warn("second signal: exiting without waiting for the queries being solved");
      std::_Exit(1);
    }
  }
  stopper.join();

  v1::StatsResponse stats;
  service.fillStats(stats);
  spdlog::info("stopped: {} requests, {} solved by lanes, cache hit rate {:.1f}%, {} lane resets",
               stats.requests(), stats.solved(), 100 * stats.cache().hit_rate(),
               stats.lane_resets());
  for (const v1::LayerStats &l : stats.layers())
    if (l.layer() == "address-cache")
      spdlog::info("address-aware cache: {} queries, {} answered", l.queries(), l.answered());
  return 0;
}
