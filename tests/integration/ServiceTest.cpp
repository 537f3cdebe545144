// A job on a cluster (a coordinator, three workers and a solver pool, each a process on
// loopback) finds what `cairn run` finds alone: the same paths, tests and errors.
#include "ServiceCluster.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>

using namespace cairn::testing;
namespace fs = std::filesystem;

namespace {

fs::path workDir(const std::string &name) {
  return fs::path(::testing::TempDir()) / ("cairn-service-" + name + "-" + std::to_string(::getpid()));
}

RunOutcome runAlone(const std::string &program, const fs::path &out, const std::vector<std::string> &options = {}) {
  std::vector<std::string> argv = {CAIRN_BIN, "run", "--search", "dfs", "--quiet", "--output-dir", out.string()};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(program);
  CommandResult r = runCommand(argv);
  EXPECT_EQ(r.status, 0) << r.output;
  return outcomeOf(out);
}

struct Case {
  std::string program;
  bool replay = true;       // replay every test natively (too slow for thousands of tests)
  bool mustSplit = false;   // long enough that work must move between workers
  std::vector<std::string> options = {}; // engine flags, for cairn run and the job alike
  std::string name = {};    // the case's name, when the program's is not enough
  std::vector<std::string> aloneOptions = {}; // for cairn run only
};

// A job on a fresh cluster against `cairn run` with the same options.
void expectJobFindsWhatCairnRunFinds(const Case &c, const fs::path &dir) {
  Cluster cluster(dir / "cluster", ClusterOptions{});
  ASSERT_TRUE(cluster.ready());
  std::vector<std::string> aloneOptions = c.options;
  aloneOptions.insert(aloneOptions.end(), c.aloneOptions.begin(), c.aloneOptions.end());
  RunOutcome alone = runAlone(c.program, dir / "alone", aloneOptions);
  EXPECT_NE(alone.pathsCompleted, "0");
  std::string failure;
  std::vector<std::string> options = {"--search", "dfs"};
  options.insert(options.end(), c.options.begin(), c.options.end());
  std::string job = cluster.runJob(c.program, options, dir / "job", failure);
  ASSERT_FALSE(job.empty()) << failure;
  // Paths, tests (one a path, and one per error location: none twice), forks, instructions
  // (those rebuilding a prefix not counted again) and errors.
  EXPECT_EQ(describe(outcomeOf(dir / "job")), describe(alone));
  // Errors name the program's file as the client compiled it, never a coordinator directory.
  std::ifstream summary(dir / "job" / "summary.json");
  std::string text((std::istreambuf_iterator<char>(summary)), {});
  EXPECT_EQ(text.find("upload-"), std::string::npos) << text;
  if (c.replay) { // each test's inputs do natively what the job says they do
    CommandResult replay = runWithStderr({CAIRN_BIN, "replay", c.program, (dir / "job").string()});
    EXPECT_EQ(replay.status, 0) << replay.output;
  }
  if (c.mustSplit) {
    CommandResult status = cluster.cairn("status", {"--json", job});
    EXPECT_GT(jsonNumber(status.output, "itemsTotal"), 2) << status.output;
  }
}

void PrintTo(const Case &c, std::ostream *os) { *os << fs::path(c.program).filename().string(); }

class Service : public ::testing::TestWithParam<Case> {};

TEST_P(Service, JobFindsWhatCairnRunFinds) {
  const Case &c = GetParam();
  const fs::path dir = workDir(fs::path(c.program).stem().string());
  expectJobFindsWhatCairnRunFinds(c, dir);
  fs::remove_all(dir);
}

const std::string kE2e = CAIRN_E2E_DIR;
INSTANTIATE_TEST_SUITE_P(
    Corpus, Service,
    ::testing::Values(Case{kE2e + "/err_many_kinds.c"}, Case{kE2e + "/err_dedup.c"}, Case{kE2e + "/maze.c"},
                      Case{kE2e + "/regexp.c", false}, Case{kE2e + "/symbolic_pointer.c"}, Case{kE2e + "/heap.c"},
                      Case{kE2e + "/strings_libc.c"},
                      Case{std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c", false, true},
                      // Breadth-first, splits hand over half of a wide frontier as items of many states.
                      Case{std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/many_paths.c", false, true,
                           {"--search", "bfs"}, "many_paths_bfs"}),
    [](const ::testing::TestParamInfo<Case> &info) {
      if (!info.param.name.empty())
        return info.param.name;
      std::string n = fs::path(info.param.program).stem().string();
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    });

// The memory models' options as jobs: the relocatable model (whose concretized pointers a
// replayed prefix must find at the same addresses), with the address-aware cache, object
// splitting, dynamic segments, and the symbolic-size model; heap_paths.c runs long enough to
// be split.
class ServiceMemoryModels : public ::testing::TestWithParam<Case> {};

TEST_P(ServiceMemoryModels, JobFindsWhatCairnRunFindsWithTheSameOptions) {
  const Case &c = GetParam();
  const fs::path dir = workDir(c.name);
  expectJobFindsWhatCairnRunFinds(c, dir);
  fs::remove_all(dir);
}

const std::string kHeapPaths = std::string(CAIRN_SERVICE_PROGRAMS_DIR) + "/heap_paths.c";
const std::vector<std::string> kRelocatable = {"--memory-model", "relocatable"};
const std::vector<std::string> kAddressCache = {"--memory-model", "relocatable", "--address-aware-cache"};
const std::vector<std::string> kSegments = {"--memory-model", "relocatable", "--merge-objects", "--context-resolve",
                                            "1"};
const std::vector<std::string> kSymbolicSizes = {"--memory-model", "relocatable", "--size-model", "symbolic",
                                                 "--size-mode", "lazy"};
INSTANTIATE_TEST_SUITE_P(
    Corpus, ServiceMemoryModels,
    ::testing::Values(Case{kHeapPaths, false, true, kRelocatable, "relocatable_heap_paths"},
                      Case{kHeapPaths, false, true, kAddressCache, "address_cache_heap_paths"},
                      Case{kHeapPaths, false, true, kSymbolicSizes, "symbolic_sizes_heap_paths"},
                      Case{kHeapPaths, false, true, kSegments, "segments_heap_paths"},
                      Case{kE2e + "/address_table_oob.c", true, false, kSegments, "segments_table_oob"},
                      Case{kE2e + "/symbolic_pointer.c", true, false, kRelocatable, "relocatable_symbolic_pointer"},
                      Case{kE2e + "/address_table_fork.c", true, false, kAddressCache, "address_cache_table_fork"},
                      Case{kE2e + "/err_oob_symbolic_range.c", true, false,
                           {"--memory-model", "relocatable", "--split-objects", "--split-threshold", "8",
                            "--partition-size", "8"},
                           "split_objects_oob_range"},
                      Case{kE2e + "/symsize_short_buffer.c", true, false,
                           {"--memory-model", "relocatable", "--size-model", "symbolic", "--size-mode", "lazy",
                            "--capacity", "4"},
                           "symbolic_sizes_short_buffer"}),
    [](const ::testing::TestParamInfo<Case> &info) { return info.param.name; });

// What each test of an output directory keeps of its path under the full libc (.stdout,
// .stderr, .exit), as one sorted list: jobs number their tests in the order they arrive.
std::vector<std::string> outputsOf(const fs::path &dir) {
  std::vector<std::string> outputs;
  for (const fs::directory_entry &e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".ktest")
      continue;
    std::string kept;
    for (const char *what : {".stdout", ".stderr", ".exit"}) {
      fs::path file = e.path();
      file.replace_extension(what);
      std::ifstream in(file, std::ios::binary);
      kept += std::string(what) + "=" + (in ? std::string(std::istreambuf_iterator<char>(in), {}) : "(none)") + ";";
    }
    outputs.push_back(std::move(kept));
  }
  std::sort(outputs.begin(), outputs.end());
  return outputs;
}

// Real programs as jobs: the full libc, and the POSIX model's symbolic arguments, stdin, files
// and failing system calls. Each test keeps the program's output and exit status, as under
// cairn run. A job's program gets an empty environment (the workers' own is not the user's),
// so cairn run is given one too.
class ServiceRealPrograms : public ::testing::TestWithParam<Case> {};

TEST_P(ServiceRealPrograms, JobFindsWhatCairnRunFindsWithTheSameOutputs) {
  const Case &c = GetParam();
  const fs::path dir = workDir(c.name);
  expectJobFindsWhatCairnRunFinds(c, dir);
  std::vector<std::string> job = outputsOf(dir / "job"), alone = outputsOf(dir / "alone");
  EXPECT_EQ(job, alone);
  EXPECT_FALSE(alone.empty());
  // The paths that exited kept their outputs (a path ended by an error has no exit status).
  EXPECT_TRUE(std::any_of(alone.begin(), alone.end(),
                          [](const std::string &t) { return t.find(".exit=(none)") == std::string::npos; }));
  fs::remove_all(dir);
}

const std::vector<std::string> kEmptyEnvironment = {"--environ", "/dev/null"};
INSTANTIATE_TEST_SUITE_P(
    Corpus, ServiceRealPrograms,
    ::testing::Values(Case{kE2e + "/posix_sym_args.c", true, false,
                           {"--libc", "full", "--all-tests", "--sym-args", "0", "2", "2"}, "sym_args",
                           kEmptyEnvironment},
                      Case{kE2e + "/posix_sym_stdin.c", true, false,
                           {"--libc", "full", "--all-tests", "--sym-stdin", "4"}, "sym_stdin", kEmptyEnvironment},
                      Case{kE2e + "/posix_sym_files.c", true, false,
                           {"--libc", "full", "--all-tests", "--sym-files", "1", "4"}, "sym_files",
                           kEmptyEnvironment},
                      // --file: cairn submit sends the file's contents, cairn results keeps it in
                      // files/ for the replay.
                      Case{kE2e + "/posix_mapped_file.c", true, false,
                           {"--libc", "full", "--all-tests", "--file", "settings=" + kE2e + "/posix_mapped_file.conf",
                            "--sym-stdin", "2"},
                           "mapped_file", kEmptyEnvironment},
                      Case{kE2e + "/posix_max_fail.c", false, false,
                           {"--libc", "full", "--all-tests", "--sym-stdin", "2", "--max-fail", "1"}, "max_fail",
                           kEmptyEnvironment}),
    [](const ::testing::TestParamInfo<Case> &info) { return info.param.name; });

} // namespace
