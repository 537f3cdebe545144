// Runs `cairn run` on the benchmark programs and prints a table: paths, instructions,
// instructions per second, wall and solver time, peak memory. Not a timed test.
//
//   cairn-bench-engine CAIRN_BINARY (PROGRAM.c | DIR)... [--search S] [--repeat N]
//                      [--config 'NAME[@BINARY]=OPTIONS']...
//
// With several --config, every program runs under each, one after the other in one process, so
// the ratio columns (each configuration's cost over the first's) compare like with like on a
// shared, noisy machine. With --repeat N the configurations take turns N times and each keeps
// its least disturbed (fastest) run. A configuration named NAME@BINARY runs that cairn binary
// instead of CAIRN_BINARY: two builds side by side in one run (old@OLD/cairn= new@NEW/cairn=).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <array>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "BenchProcess.h"

namespace fs = std::filesystem;
using cairn::bench::field;
using cairn::bench::Run;
using cairn::bench::runCairn;

// One way of running every program: a name, the binary (empty: CAIRN_BINARY) and the `cairn run`
// options that make it.
struct Config {
  std::string name;
  std::string binary;
  std::vector<std::string> args;
};

Config parseConfig(const std::string &spec) {
  Config c;
  size_t eq = spec.find('=');
  c.name = spec.substr(0, eq);
  if (size_t at = c.name.find('@'); at != std::string::npos) {
    c.binary = c.name.substr(at + 1);
    c.name.resize(at);
  }
  if (eq != std::string::npos) {
    std::string rest = spec.substr(eq + 1), word;
    for (char ch : rest + ' ') {
      if (ch == ' ') {
        if (!word.empty())
          c.args.push_back(word);
        word.clear();
      } else {
        word += ch;
      }
    }
  }
  return c;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s CAIRN_BINARY (PROGRAM.c | DIR)... [--search S] [--repeat N] [--config 'NAME[@BINARY]=OPTIONS']...\n"
                 "  each --config runs every program once more with those cairn run options (and\n"
                 "  that cairn binary, when one follows the name);\n"
                 "  the ratio columns compare each configuration with the first\n",
                 argv[0]);
    return 2;
  }
  std::string search = "dfs";
  int repeat = 1;
  std::vector<fs::path> programs;
  std::vector<Config> configs;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--search") && i + 1 < argc) {
      search = argv[++i];
    } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--config") && i + 1 < argc) {
      configs.push_back(parseConfig(argv[++i]));
    } else if (fs::is_directory(argv[i])) {
      for (const auto &e : fs::directory_iterator(argv[i]))
        if (e.path().extension() == ".c")
          programs.push_back(e.path());
    } else {
      programs.push_back(argv[i]);
    }
  }
  if (configs.empty())
    configs.push_back({"default", {}, {}});
  std::sort(programs.begin(), programs.end());
  const bool compare = configs.size() > 1;
  std::printf("%-22s %-14s %8s %12s %10s %9s %10s %8s %9s", "program", "config", "paths",
              "instructions", "M instr/s", "wall (s)", "solver (s)", "queries", "peak MiB");
  if (compare)
    std::printf(" %10s %10s %10s", "wall x", "solver x", "queries x");
  std::printf("\n");
  // Per configuration: sums of log ratios (wall, solver, queries) and how many programs.
  std::vector<std::array<double, 3>> logRatios(configs.size(), {0, 0, 0});
  std::vector<std::array<int, 3>> compared(configs.size(), {0, 0, 0});
  for (const fs::path &p : programs) {
    double firstWall = 0, firstSolver = 0, firstQueries = 0;
    // Each configuration's fastest run (by wall time) of `repeat`, the configurations in turn.
    std::vector<Run> best(configs.size());
    for (int round = 0; round < repeat; ++round)
      for (size_t c = 0; c < configs.size(); ++c) {
        // In memory when possible: creating thousands of test files right after deleting the
        // last run's costs ext4 more than the run itself, and that is not what this measures.
        fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
        fs::path out = base / ("cairn-bench-" + std::to_string(getpid()));
        fs::remove_all(out);
        const std::string &binary = configs[c].binary.empty() ? std::string(argv[1]) : configs[c].binary;
        std::vector<std::string> command = {binary, "run", "--quiet", "--json", "--search", search,
                                            "--output-dir", out.string()};
        command.insert(command.end(), configs[c].args.begin(), configs[c].args.end());
        command.push_back(p.string());
        Run r = runCairn(command);
        fs::remove_all(out);
        if (r.ok && (!best[c].ok || field(r.json, "wall_time_s") < field(best[c].json, "wall_time_s")))
          best[c] = std::move(r);
      }
    for (size_t c = 0; c < configs.size(); ++c) {
      const Run &r = best[c];
      if (!r.ok) {
        std::printf("%-22s %-14s failed\n", p.stem().c_str(), configs[c].name.c_str());
        continue;
      }
      double instr = field(r.json, "instructions"), wall = field(r.json, "wall_time_s");
      double solver = field(r.json, "solver_time_s"), queries = field(r.json, "solver_queries");
      std::printf("%-22s %-14s %8.0f %12.0f %10.1f %9.2f %10.3f %8.0f %9.1f", p.stem().c_str(),
                  configs[c].name.c_str(),
                  field(r.json, "paths_completed") + field(r.json, "paths_partial"), instr,
                  instr / std::max(wall, 1e-9) / 1e6, wall, solver, queries,
                  double(r.maxRssKb) / 1024);
      if (c == 0) {
        firstWall = wall, firstSolver = solver, firstQueries = queries;
      } else {
        // How many times the first configuration's cost this one has: under 1 is faster.
        auto ratio = [](double x, double first) { return first > 0 ? x / first : 0.0; };
        std::printf(" %10.2f %10.2f %10.2f", ratio(wall, firstWall), ratio(solver, firstSolver),
                    ratio(queries, firstQueries));
        // Each column's mean over the programs where both values of that column are positive
        // (a configuration that asks the solver nothing has no solver ratio, not a zero one).
        const double values[3][2] = {{wall, firstWall}, {solver, firstSolver}, {queries, firstQueries}};
        for (int k = 0; k < 3; ++k)
          if (values[k][0] > 0 && values[k][1] > 0) {
            logRatios[c][k] += std::log(values[k][0] / values[k][1]);
            ++compared[c][k];
          }
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  // The geometric mean of each configuration's ratios over the programs (under 1: cheaper).
  for (size_t c = 1; c < configs.size(); ++c) {
    std::printf("%-22s %-14s %8s %12s %10s %9s %10s %8s %9s", "geometric mean", configs[c].name.c_str(), "", "", "",
                "", "", "", "");
    for (int k = 0; k < 3; ++k)
      if (compared[c][k])
        std::printf(" %10.2f", std::exp(logRatios[c][k] / compared[c][k]));
      else
        std::printf(" %10s", "-");
    std::printf("\n");
  }
  return 0;
}
