// A Cairn cluster on loopback for the service tests: solver pool replicas, a coordinator with
// its job store in a directory of the test's, and workers, each a real process; the `cairn`
// client run against it; and what the tests compare (summaries, error sites).
#pragma once

#include "Process.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cairn::testing {

struct ClusterOptions {
  size_t workers = 3;
  size_t poolReplicas = 1;
  // Short, so that the fault tests see a killed worker lost within a second.
  double heartbeatSeconds = 0.3;
  std::vector<std::string> serverArgs; // more coordinator options
  std::vector<std::string> workerArgs; // more options of every worker
  // PEM files: the coordinator serves TLS with this certificate and key, and the workers and
  // the client trust `tlsCa`.
  std::string tlsCert, tlsKey, tlsCa;
  // The coordinator is told the pool's replicas (--solver-pool), for the dashboard.
  bool coordinatorKnowsPool = false;
};

class Cluster {
public:
  Cluster(std::filesystem::path dir, ClusterOptions options);
  ~Cluster();
  bool ready() const;
  const std::string &server() const { return server_; }         // HOST:PORT of the gRPC API
  const std::string &dashboard() const { return dashboard_; }   // HOST:PORT of the HTTP server

  Daemon &coordinator() { return *coordinator_; }
  std::vector<std::unique_ptr<Daemon>> &workers() { return workers_; }
  std::vector<std::unique_ptr<PoolProcess>> &pool() { return pool_; }
  // Starts the coordinator again on the same address and job store (after it was killed).
  bool restartCoordinator();
  // Adds a worker with the options' worker arguments and `extraArgs`; it takes the coordinator's
  // own token unless the options say otherwise.
  bool addWorker(const std::vector<std::string> &extraArgs = {});
  // The token file a coordinator given no worker tokens makes beside its job store.
  std::filesystem::path defaultWorkerTokenFile() const { return dir_ / "jobs.db.worker-token"; }

  // `cairn COMMAND --server THIS ARGS...`, with its standard error in `output` too.
  CommandResult cairn(const std::string &command, const std::vector<std::string> &args);
  // `cairn submit --search dfs OPTIONS PROGRAM`: the job id, or "" with the client's output in
  // `failure`.
  std::string submitDfs(const std::string &program, const std::vector<std::string> &options, std::string &failure);
  // Polls `cairn status --json JOB` until `ready` holds of it, at most `seconds`; the last status.
  std::string waitForStatus(const std::string &job, double seconds, const std::function<bool(const std::string &)> &ready);
  // Submits, waits (at most `seconds`) and fetches the results into `outputDir`; returns the
  // job id, or "" after a failure (added to `failure`).
  std::string runJob(const std::string &program, const std::vector<std::string> &options,
                     const std::filesystem::path &outputDir, std::string &failure, double seconds = 120);

private:
  bool startCoordinator(const std::string &listen, const std::string &http);
  std::filesystem::path dir_;
  ClusterOptions options_;
  std::vector<std::unique_ptr<PoolProcess>> pool_;
  std::unique_ptr<Daemon> coordinator_;
  std::vector<std::unique_ptr<Daemon>> workers_;
  std::string server_, dashboard_, poolList_;
};

// Runs argv with standard error joined to standard output.
CommandResult runWithStderr(const std::vector<std::string> &argv);

// What a run's summary.json says, without timings and solver counts (which depend on caches).
struct RunOutcome {
  std::string pathsCompleted, pathsPartial, tests, forks, instructions;
  std::set<std::string> errors; // type/kind/FILE-NAME:line
  size_t ktestFiles = 0;
  bool operator==(const RunOutcome &) const = default;
};
RunOutcome outcomeOf(const std::filesystem::path &outputDir);
std::string describe(const RunOutcome &o);

// A JSON number field ("name": N) of `json`, or -1.
long long jsonNumber(const std::string &json, const std::string &name);
// A JSON number field that may have a fraction, or -1.
double jsonReal(const std::string &json, const std::string &name);
struct HttpReply {
  int status = 0; // 0: no answer
  std::string head, body;
};
// GET http://ADDRESS/PATH, with `Authorization: Bearer TOKEN` when `token` is given.
HttpReply httpFetch(const std::string &address, const std::string &path, const std::string &token = "");
// The body of a 200 answer, or "".
std::string httpGet(const std::string &address, const std::string &path, const std::string &token = "");

} // namespace cairn::testing
