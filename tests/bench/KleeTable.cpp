// The KLEE comparison of issue 26, reproduced with this directory alone: each benchmark program
// compiled once to bitcode (as `cairn run` compiles C), then `cairn run` on that bitcode in the
// configuration KLEE was measured in (the search named, a test per path, output in memory), its
// process time from start to exit beside KLEE 3.2's recorded time on the same bitcode.
//
//   cairn-bench-klee CAIRN_BINARY [--repeat N]
//
// KLEE's times were measured on this project's machines (Release, asserts off, LLVM 15,
// Z3 4.8.12, 2 cores with one other job running); KLEE is not packaged for Debian 12, so they
// are a reference, not a side-by-side run. Rows without one are the larger variants of the
// programs where start-up dominates both engines. Not a timed test.
#include "BenchProcess.h"

#include "cairn/engine/ProgramLoader.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace cairn::bench;

namespace {

struct Row {
  const char *name;    // as printed
  const char *program; // in CAIRN_BENCH_PROGRAMS_DIR
  const char *search;
  std::vector<std::string> cflags;
  double kleeSeconds; // 0: none recorded
};

const std::vector<Row> &rows() {
  static const std::vector<Row> table = {
      {"checksum", "checksum.c", "dfs", {}, 12.48},
      {"paths-32k", "paths-32k.c", "dfs", {}, 51.1},
      {"insertion-sort-5", "insertion-sort-5.c", "dfs", {}, 7.79},
      {"branches-12", "branches-12.c", "dfs", {}, 0.57},
      {"live-objects", "live-objects.c", "dfs", {}, 0.26},
      {"maze-16", "maze-16.c", "bfs", {}, 4.69},
      {"branches-16", "branches-12.c", "dfs", {"-DBYTES=16"}, 0},
      {"live-objects-10k", "live-objects.c", "dfs", {"-DOBJECTS=10000"}, 0},
  };
  return table;
}

// clang-15 as `cairn run` calls it for C (ProgramLoader's default flags and the runtime's headers).
bool compile(const fs::path &source, const std::vector<std::string> &cflags, const fs::path &out) {
  std::vector<std::string> argv = {"/usr/bin/clang-15", "-c", "-emit-llvm"};
  const std::vector<std::string> defaults = cairn::engine::LoadOptions().defaultCFlags;
  argv.insert(argv.end(), defaults.begin(), defaults.end());
  argv.push_back("-I" CAIRN_RUNTIME_INCLUDE);
  argv.insert(argv.end(), cflags.begin(), cflags.end());
  argv.insert(argv.end(), {source.string(), "-o", out.string()});
  return runCairn(argv).ok;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CAIRN_BINARY [--repeat N]\n", argv[0]);
    return 2;
  }
  int repeat = 1;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  const fs::path work = fs::path(fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path()) /
                        ("cairn-bench-klee-" + std::to_string(getpid()));
  fs::create_directories(work);
  std::printf("%-18s %-6s %8s %12s %11s %11s %10s %11s %9s\n", "program", "search", "paths", "instructions",
              "KLEE (s)", "Cairn (s)", "engine (s)", "KLEE/Cairn", "5x met");
  int failures = 0;
  for (const Row &row : rows()) {
    const fs::path bitcode = work / (std::string(row.name) + ".bc");
    if (!compile(fs::path(CAIRN_BENCH_PROGRAMS_DIR) / row.program, row.cflags, bitcode)) {
      std::printf("%-18s could not be compiled\n", row.name);
      ++failures;
      continue;
    }
    Run best;
    for (int round = 0; round < repeat; ++round) {
      const fs::path out = work / "out";
      fs::remove_all(out);
      Run r = runCairn({argv[1], "run", "--quiet", "--json", "--search", row.search, "--output-dir", out.string(),
                        bitcode.string()});
      if (r.ok && (!best.ok || r.processSeconds < best.processSeconds))
        best = std::move(r);
    }
    if (!best.ok) {
      std::printf("%-18s failed\n", row.name);
      ++failures;
      continue;
    }
    const double paths = field(best.json, "paths_completed") + field(best.json, "paths_partial");
    std::printf("%-18s %-6s %8.0f %12.0f", row.name, row.search, paths, field(best.json, "instructions"));
    if (row.kleeSeconds > 0)
      std::printf(" %11.2f %11.3f %10.3f %10.1fx %9s\n", row.kleeSeconds, best.processSeconds,
                  field(best.json, "wall_time_s"), row.kleeSeconds / best.processSeconds,
                  best.processSeconds * 5 <= row.kleeSeconds ? "yes" : "no");
    else
      std::printf(" %11s %11.3f %10.3f %11s %9s\n", "-", best.processSeconds, field(best.json, "wall_time_s"), "-", "-");
    std::fflush(stdout);
  }
  fs::remove_all(work);
  return failures ? 1 : 0;
}
