// The same exhaustive job on clusters of 1, 2 and 4 workers (a coordinator, a solver pool
// replica and the workers as processes on loopback), and `cairn run` alone for reference; prints
// wall time, paths, tests, work items, and the ratio of the first cluster's wall time over each
// one's (the speed-up). Not a timed test.
//
//   cairn-bench-service [PROGRAM.c] [--workers 1,2,4] [--search S]
//
// The default program is tests/integration/programs/many_paths.c (4,096 paths). On a machine
// with fewer cores than workers, the workers share the cores: the speed-up is bounded by them.
#include "ServiceCluster.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <thread>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

int main(int argc, char **argv) {
  std::string program = std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c", search = "dfs";
  std::vector<size_t> counts = {1, 2, 4};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--workers" && i + 1 < argc) {
      counts.clear();
      std::stringstream list(argv[++i]);
      for (std::string n; std::getline(list, n, ',');)
        counts.push_back(std::stoul(n));
    } else if (a == "--search" && i + 1 < argc) {
      search = argv[++i];
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "usage: cairn-bench-service [PROGRAM.c] [--workers 1,2,4] [--search S]\n");
      return 2;
    } else {
      program = a;
    }
  }
  const fs::path dir = fs::temp_directory_path() / ("cairn-bench-service-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::printf("program %s, --search %s, %u cores\n\n", fs::path(program).filename().c_str(), search.c_str(),
              std::thread::hardware_concurrency());
  std::printf("%-16s %9s %8s %8s %7s %9s\n", "configuration", "wall s", "paths", "tests", "items", "ratio");

  auto start = std::chrono::steady_clock::now();
  CommandResult alone = runCommand({CAIRN_BIN, "run", "--search", search, "--quiet", "--json", "--output-dir",
                                    (dir / "alone").string(), program});
  double aloneSeconds = secondsSince(start);
  if (alone.status != 0) {
    std::fprintf(stderr, "cairn run failed\n");
    return 1;
  }
  std::printf("%-16s %9.2f %8lld %8lld %7s %9s\n", "cairn run", aloneSeconds,
              jsonNumber(alone.output, "paths_completed"), jsonNumber(alone.output, "tests"), "-", "-");

  double oneWorker = 0;
  int status = 0;
  for (size_t workers : counts) {
    ClusterOptions options;
    options.workers = workers;
    Cluster cluster(dir / ("cluster-" + std::to_string(workers)), options);
    if (!cluster.ready()) {
      std::fprintf(stderr, "the cluster of %zu workers did not start\n", workers);
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // workers registered
    // Submission to the end of the job: compiling, exploring, collecting the results.
    start = std::chrono::steady_clock::now();
    CommandResult submitted = cluster.cairn("submit", {"--search", search, program});
    std::string job = submitted.output.substr(0, submitted.output.find('\n'));
    CommandResult waited = cluster.cairn("wait", {"--timeout", "3600", job});
    double seconds = secondsSince(start);
    CommandResult st = cluster.cairn("status", {"--json", job});
    if (waited.status != 0) {
      std::fprintf(stderr, "job on %zu workers failed: %s\n", workers, waited.output.c_str());
      status = 1;
      continue;
    }
    if (oneWorker == 0)
      oneWorker = seconds; // the first configuration is the reference
    char name[32];
    std::snprintf(name, sizeof name, "%zu worker%s", workers, workers == 1 ? "" : "s");
    std::printf("%-16s %9.2f %8lld %8lld %7lld %8.2fx\n", name, seconds, jsonNumber(st.output, "pathsCompleted"),
                jsonNumber(st.output, "tests"), jsonNumber(st.output, "itemsTotal"),
                oneWorker / seconds);
    std::fflush(stdout);
  }
  fs::remove_all(dir);
  return status;
}
