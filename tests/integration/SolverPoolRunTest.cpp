// `cairn run --solver-pool` explores like a run with its solver in-process: the same paths,
// tests and errors, with the core queries answered by the pool.
#include "Process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

// The outcome of a run as its JSON summary states it, without its timings.
struct SummaryCounts {
  std::string json;
  std::string paths, partial, tests, forks, errors;
  uint64_t solverQueries = 0;
};

std::string field(const std::string &json, const std::string &name) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + name + "\": ([0-9]+)")))
    return "missing";
  return m[1];
}

SummaryCounts countsOf(const std::string &json) {
  SummaryCounts o;
  o.json = json;
  o.paths = field(json, "paths_completed");
  o.partial = field(json, "paths_partial");
  o.tests = field(json, "tests");
  o.forks = field(json, "forks");
  std::smatch m;
  if (std::regex_search(json, m, std::regex("\"errors\": (\\[[^\\]]*\\])")))
    o.errors = m[1];
  std::string q = field(json, "solver_queries");
  o.solverQueries = q == "missing" ? 0 : std::stoull(q);
  return o;
}

size_t ktestFiles(const fs::path &dir) {
  size_t n = 0;
  for (const auto &e : fs::directory_iterator(dir))
    n += e.path().extension() == ".ktest";
  return n;
}

// `cairn run` of `program` with `options`, in process and with the pool, into work/local and
// work/pool; both must succeed.
struct LocalAndPool {
  CommandResult local, remote;
};
LocalAndPool runBoth(const PoolProcess &pool, const fs::path &work, const std::string &program,
                     const std::vector<std::string> &options) {
  auto run = [&](const std::string &name, std::vector<std::string> extra) {
    std::vector<std::string> argv = {CAIRN_BIN, "run", "--json", "--quiet", "--output-dir", (work / name).string()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(program);
    return runCommand(argv);
  };
  return {run("local", {}), run("pool", {"--solver-pool", pool.endpoint(), "--solver-pool-token-file", testPoolTokenFile()})};
}

TEST(SolverPoolRun, SameExplorationAsInProcess) {
  PoolProcess pool;
  ASSERT_TRUE(pool.ready());
  const fs::path work = fs::path(::testing::TempDir()) / ("cairn-pool-run-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  auto [local, remote] = runBoth(pool, work, std::string(CAIRN_EXAMPLES_DIR) + "/sign.c", {"--seed", "1"});
  ASSERT_EQ(local.status, 0) << local.output;
  ASSERT_EQ(remote.status, 0) << remote.output;
  SummaryCounts l = countsOf(local.output), r = countsOf(remote.output);
  EXPECT_EQ(l.paths, "3") << local.output;
  EXPECT_EQ(r.paths, l.paths);
  EXPECT_EQ(r.partial, l.partial);
  EXPECT_EQ(r.tests, l.tests);
  EXPECT_EQ(r.forks, l.forks);
  EXPECT_EQ(r.errors, l.errors);
  EXPECT_EQ(ktestFiles(work / "pool"), ktestFiles(work / "local"));
  // The pool did the solving: every core query of the run reached it.
  EXPECT_GT(r.solverQueries, 0u);
  EXPECT_EQ(pool.stats().requests(), r.solverQueries);
  fs::remove_all(work);
}

uint64_t poolCounter(const cairn::v1::StatsResponse &stats, const std::string &layer, const std::string &name) {
  for (const auto &l : stats.layers())
    if (l.layer() == layer && l.counters().count(name))
      return l.counters().at(name);
  return 0;
}

// State merging with quantifiers with the solver in a pool: the run's quantified queries travel
// whole (no quantified layer in front of the pool) and the pool's lanes answer them with the
// procedure; the exploration is the in-process run's.
TEST(SolverPoolRun, QuantifiedQueriesAreAnsweredByThePoolsProcedure) {
  PoolProcess pool;
  ASSERT_TRUE(pool.ready());
  const fs::path work = fs::path(::testing::TempDir()) / ("cairn-pool-quantified-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  auto [local, remote] =
      runBoth(pool, work, std::string(CAIRN_E2E_DIR) + "/merge_quantified_strchr_chain.c",
              {"--search", "dfs", "--size-model", "symbolic", "--capacity", "4", "--size-mode", "merge-opt",
               "--merge-encoding", "quantified", "--validate-merges"});
  ASSERT_EQ(local.status, 0) << local.output;
  ASSERT_EQ(remote.status, 0) << remote.output;
  SummaryCounts l = countsOf(local.output), r = countsOf(remote.output);
  EXPECT_EQ(l.paths, "5") << local.output;
  EXPECT_EQ(r.paths, l.paths);
  EXPECT_EQ(r.partial, l.partial);
  EXPECT_EQ(r.tests, l.tests);
  EXPECT_EQ(r.forks, l.forks);
  EXPECT_EQ(r.errors, l.errors);
  EXPECT_EQ(field(r.json, "quantified_merges"), "4");
  EXPECT_EQ(field(r.json, "merges_validated"), "4");
  EXPECT_EQ(field(r.json, "merge_mismatches"), "0");
  // In process the layer answered them; with the pool no layer of the run saw one.
  EXPECT_NE(field(l.json, "quantified_queries"), "0");
  EXPECT_EQ(field(r.json, "quantified_queries"), "missing") << remote.output;
  const cairn::v1::StatsResponse stats = pool.stats();
  EXPECT_GT(poolCounter(stats, "quantified", "quantified_queries"), 0u);
  EXPECT_GT(poolCounter(stats, "quantified", "sat_by_strip") + poolCounter(stats, "quantified", "unsat_by_strip"), 0u);
  fs::remove_all(work);
}

} // namespace
