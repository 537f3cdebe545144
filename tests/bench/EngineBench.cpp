// Runs `cairn run` on the benchmark programs and prints a table: paths, instructions,
// instructions per second, wall and solver time, peak memory. Not a timed test.
//
//   cairn-bench-engine CAIRN_BINARY (PROGRAM.c | DIR)... [--search S]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Run {
  std::string json;
  long maxRssKb = 0;
  bool ok = false;
};

Run runCairn(const std::vector<std::string> &argv) {
  Run r;
  int fds[2];
  if (pipe(fds) != 0)
    return r;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    r.json.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  r.maxRssKb = usage.ru_maxrss;
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return r;
}

// The number after "key": in a flat JSON object.
double field(const std::string &json, const char *key) {
  std::string k = std::string("\"") + key + "\": ";
  size_t at = json.find(k);
  return at == std::string::npos ? -1 : std::atof(json.c_str() + at + k.size());
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CAIRN_BINARY (PROGRAM.c | DIR)... [--search S]\n", argv[0]);
    return 2;
  }
  std::string search = "dfs";
  std::vector<fs::path> programs;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--search") && i + 1 < argc) {
      search = argv[++i];
    } else if (fs::is_directory(argv[i])) {
      for (const auto &e : fs::directory_iterator(argv[i]))
        if (e.path().extension() == ".c")
          programs.push_back(e.path());
    } else {
      programs.push_back(argv[i]);
    }
  }
  std::sort(programs.begin(), programs.end());
  std::printf("%-22s %8s %12s %10s %9s %9s %9s\n", "program", "paths", "instructions", "M instr/s",
              "wall (s)", "solver (s)", "peak MiB");
  for (const fs::path &p : programs) {
    // In memory when possible: creating thousands of test files right after deleting the last
    // run's costs ext4 more than the run itself, and that is not what this measures.
    fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path out = base / ("cairn-bench-" + std::to_string(getpid()));
    fs::remove_all(out);
    Run r = runCairn({argv[1], "run", "--quiet", "--json", "--search", search, "--output-dir",
                      out.string(), p.string()});
    fs::remove_all(out);
    if (!r.ok) {
      std::printf("%-22s failed\n", p.filename().c_str());
      continue;
    }
    double instr = field(r.json, "instructions"), wall = field(r.json, "wall_time_s");
    std::printf("%-22s %8.0f %12.0f %10.1f %9.2f %9.2f %9.1f\n", p.stem().c_str(),
                field(r.json, "paths_completed") + field(r.json, "paths_partial"), instr,
                instr / std::max(wall, 1e-9) / 1e6, wall, field(r.json, "solver_time_s"),
                double(r.maxRssKb) / 1024);
  }
  return 0;
}
