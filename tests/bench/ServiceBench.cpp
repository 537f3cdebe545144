// The same exhaustive job on clusters of 1, 2 and 4 workers (a coordinator, a solver pool
// replica and the workers as processes on loopback), and `cairn run` alone for reference; prints
// wall time (submission to the last result: compiling the program included), the job's own time
// (its first item's start to its end), paths, tests, work items, the share of the items' time
// spent replaying their prefixes, and the first cluster's times over each one's (the speed-up
// of the job, and of the wall time). Each cluster runs the job twice: first fresh, then again
// as a long-running service would (the program loaded, the daemons warm). Then, while more jobs (the same one) run, how many
// status requests per second the coordinator answers over gRPC (GetJob) and over HTTP (the
// dashboard's JSON). Not a timed test.
//
//   cairn-bench-service [PROGRAM.c] [--workers 1,2,4] [--search S|default] [--no-status-load]
//
// The default program is tests/bench/programs/paths-32k.c (32,768 paths). On a machine with
// fewer cores than workers, the workers share the cores: the speed-up is bounded by them.
#include "ServiceCluster.h"

#include "cairn/v1/jobs.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <sstream>
#include <thread>

using namespace cairn::testing;
namespace fs = std::filesystem;
namespace v1 = cairn::v1;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Runs `request` from `threads` clients for `seconds`; answered requests per second, or -1 when
// one failed.
double requestsPerSecond(unsigned threads, double seconds, const std::function<bool()> &request) {
  std::atomic<uint64_t> answered{0};
  std::atomic<bool> failed{false};
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  const auto start = Clock::now();
  std::vector<std::thread> clients;
  for (unsigned t = 0; t < threads; ++t)
    clients.emplace_back([&] {
      while (Clock::now() < end && !failed)
        if (request())
          ++answered;
        else
          failed = true;
    });
  for (std::thread &c : clients)
    c.join();
  return failed ? -1 : double(answered) / secondsSince(start);
}

} // namespace

int main(int argc, char **argv) {
  std::string program = std::string(CAIRN_BENCH_PROGRAMS_DIR) + "/paths-32k.c", search = "dfs";
  std::vector<size_t> counts = {1, 2, 4};
  bool statusLoad = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--workers" && i + 1 < argc) {
      counts.clear();
      std::stringstream list(argv[++i]);
      for (std::string n; std::getline(list, n, ',');)
        counts.push_back(std::stoul(n));
    } else if (a == "--search" && i + 1 < argc) {
      search = argv[++i];
    } else if (a == "--no-status-load") {
      statusLoad = false;
    } else if (a.rfind("--", 0) == 0 || counts.empty()) {
      std::fprintf(stderr, "usage: cairn-bench-service [PROGRAM.c] [--workers 1,2,4] [--search S|default] [--no-status-load]\n");
      return 2;
    } else {
      program = a;
    }
  }
  const fs::path dir = fs::temp_directory_path() / ("cairn-bench-service-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::printf("program %s, --search %s, %u cores\n\n", fs::path(program).filename().c_str(), search.c_str(),
              std::thread::hardware_concurrency());
  std::printf("%-16s %8s %8s %8s %8s %6s %8s %9s %9s %7s\n", "configuration", "wall s", "job s", "paths", "tests",
              "items", "replay", "replay s", "speed-up", "wall x");

  auto start = Clock::now();
  // `default`: no --search, the engine's own choice.
  const std::vector<std::string> searchFlags =
      search == "default" ? std::vector<std::string>{} : std::vector<std::string>{"--search", search};
  std::vector<std::string> runArgs = {CAIRN_BIN, "run"};
  runArgs.insert(runArgs.end(), searchFlags.begin(), searchFlags.end());
  runArgs.insert(runArgs.end(), {"--quiet", "--json", "--output-dir", (dir / "alone").string(), program});
  CommandResult alone = runCommand(runArgs);
  std::vector<std::string> submitArgs = searchFlags;
  submitArgs.push_back(program);
  double aloneSeconds = secondsSince(start);
  if (alone.status != 0) {
    std::fprintf(stderr, "cairn run failed\n");
    return 1;
  }
  std::printf("%-16s %8.2f %8s %8lld %8lld %6s %8s %9s %9s %7s\n", "cairn run", aloneSeconds, "-",
              jsonNumber(alone.output, "paths_completed"), jsonNumber(alone.output, "tests"), "-", "-", "-", "-", "-");

  // Per pass: the first job on a fresh cluster, and the same job again on it (the program
  // already loaded on the workers, the daemons' memory and the job store grown): what a
  // long-running service sees. Each pass is compared with the same pass on one worker.
  double oneWorker[2] = {0, 0}, oneWorkerJob[2] = {0, 0};
  int status = 0;
  for (size_t workers : counts) {
    ClusterOptions options;
    options.workers = workers;
    options.heartbeatSeconds = 1; // the default: a loaded machine must not lose workers
    Cluster cluster(dir / ("cluster-" + std::to_string(workers)), options);
    if (!cluster.ready()) {
      std::fprintf(stderr, "the cluster of %zu workers did not start\n", workers);
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // workers registered
    std::string job;
    for (int pass = 0; pass < 2; ++pass) {
      // Submission to the end of the job: compiling, exploring, collecting the results.
      start = Clock::now();
      CommandResult submitted = cluster.cairn("submit", submitArgs);
      job = submitted.output.substr(0, submitted.output.find('\n'));
      CommandResult waited = cluster.cairn("wait", {"--timeout", "3600", job});
      double seconds = secondsSince(start);
      CommandResult st = cluster.cairn("status", {"--json", job});
      if (waited.status != 0) {
        std::fprintf(stderr, "job on %zu workers failed: %s\n", workers, waited.output.c_str());
        status = 1;
        continue;
      }
      const double jobSeconds = jsonReal(st.output, "elapsedS");
      if (oneWorker[pass] == 0) // the first configuration is the reference
        oneWorker[pass] = seconds, oneWorkerJob[pass] = jobSeconds;
      // Replay's share: of the items' summed run time, the part spent rebuilding their prefixes.
      const double replaySeconds = jsonReal(st.output, "replayTimeS"), runSeconds = jsonReal(st.output, "runTimeS");
      char name[32], share[32];
      std::snprintf(name, sizeof name, "%zu worker%s%s", workers, workers == 1 ? "" : "s", pass ? ", again" : "");
      std::snprintf(share, sizeof share, "%.2f%%", runSeconds > 0 ? 100 * std::max(0.0, replaySeconds) / runSeconds : 0.0);
      std::printf("%-16s %8.2f %8.2f %8lld %8lld %6lld %8s %9.3f %8.2fx %6.2fx\n", name, seconds, jobSeconds,
                  jsonNumber(st.output, "pathsCompleted"), jsonNumber(st.output, "tests"),
                  jsonNumber(st.output, "itemsTotal"), share, std::max(0.0, replaySeconds),
                  jobSeconds > 0 ? oneWorkerJob[pass] / jobSeconds : 0.0, oneWorker[pass] / seconds);
      std::fflush(stdout);
    }

    if (!statusLoad || workers != counts.back())
      continue;
    // Status requests while a job runs: a CI system's GetJob and the dashboard's JSON, each asked
    // about the job running at the time: the benchmark's job again, eight of them queued so that
    // one runs through both measurements.
    std::vector<std::string> queuedJobs;
    for (int i = 0; i < 8; ++i) {
      CommandResult queued = cluster.cairn("submit", submitArgs);
      queuedJobs.push_back(queued.output.substr(0, queued.output.find('\n')));
    }
    auto runningJob = [&]() -> std::string {
      for (const std::string &id : queuedJobs)
        if (cluster.cairn("status", {"--json", id}).output.find("JOB_COMPLETED") == std::string::npos)
          return id;
      return "";
    };
    job = runningJob();
    auto stub = v1::Jobs::NewStub(grpc::CreateChannel(cluster.server(), grpc::InsecureChannelCredentials()));
    const double grpcRate = requestsPerSecond(4, 2, [&] {
      grpc::ClientContext context;
      v1::GetJobRequest request;
      request.set_job_id(job);
      v1::JobStatus out;
      return stub->GetJob(&context, request, &out).ok();
    });
    const std::string httpJob = runningJob();
    const double httpRate = requestsPerSecond(4, 2, [&] { return !httpGet(cluster.dashboard(), "/api/jobs/" + httpJob).empty(); });
    const bool running = !job.empty() && !httpJob.empty() && !runningJob().empty();
    std::printf("\nstatus requests while a job (%s) runs on %zu worker%s (4 clients, 2 s each)%s:\n"
                "  gRPC GetJob          %9.0f /s\n  HTTP /api/jobs/ID    %9.0f /s\n",
                fs::path(program).filename().c_str(), workers, workers == 1 ? "" : "s",
                running ? "" : " (the jobs ended meanwhile)", grpcRate, httpRate);
    for (const std::string &id : queuedJobs)
      cluster.cairn("cancel", {id});
  }
  fs::remove_all(dir);
  return status;
}
