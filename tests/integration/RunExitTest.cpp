// `cairn run` stopped by --max-time ends within moments of printing its summary, whatever its
// solver was doing: the teardown after a hard query (cvc5 frees for about as long as it
// solved, tens of seconds on a loaded machine; a portfolio joins a losing solver still at its
// query) is skipped once every result is written.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Timing {
  std::string summary;       // the JSON summary line
  double afterSummary = -1;  // seconds from writing summary.json to the process's end
  int status = -1;
};

double seconds(const timespec &t) { return double(t.tv_sec) + double(t.tv_nsec) * 1e-9; }

Timing runStopped(const std::string &solver, const fs::path &out) {
  const std::string command = std::string(CAIRN_BIN) + " run --quiet --json --solver " + solver +
                              " --max-time 3 --output-dir " + out.string() + " " + CAIRN_SERVICE_PROGRAMS_DIR +
                              "/hard_queries.c";
  Timing t;
  FILE *p = ::popen(command.c_str(), "r");
  if (!p)
    return t;
  char line[65536];
  if (std::fgets(line, sizeof line, p))
    t.summary = line;
  t.status = ::pclose(p); // returns once the process has ended
  timespec ended{};
  ::clock_gettime(CLOCK_REALTIME, &ended);
  // Measured from summary.json's modification time, the moment the results were complete,
  // not from the printed line, which a buffered stdout could hold back until the exit.
  struct stat written {};
  if (::stat((out / "summary.json").c_str(), &written) == 0)
    t.afterSummary = seconds(ended) - seconds(written.st_mtim);
  return t;
}

class RunExit : public ::testing::TestWithParam<const char *> {};

// The exit takes ~0.05 s; the bound leaves room for a loaded machine, and a teardown that
// lingers (as it did: 5 s on a quiet machine, 20 s on a busy one) still fails it.
TEST_P(RunExit, EndsSoonAfterTheSummary) {
  const fs::path out = fs::temp_directory_path() /
                       ("cairn-exit-" + std::to_string(::getpid()) + "-" + GetParam());
  fs::remove_all(out);
  Timing t = runStopped(GetParam(), out);
  EXPECT_EQ(t.status, 0);
  EXPECT_NE(t.summary.find("\"paths_partial\": "), std::string::npos) << t.summary;
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  EXPECT_GE(t.afterSummary, 0);
  EXPECT_LT(t.afterSummary, 2.5) << "the process lingered after its summary";
  fs::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Solvers, RunExit, ::testing::Values("z3", "cvc5", "portfolio"));

} // namespace
