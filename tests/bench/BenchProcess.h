// Running `cairn run` from a benchmark: its JSON summary, exit, peak memory and wall time.
#pragma once

#include <chrono>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace cairn::bench {

struct Run {
  std::string json;
  long maxRssKb = 0;
  double processSeconds = 0; // from fork to exit: start-up, load and exploration
  bool ok = false;
};

inline Run runCairn(const std::vector<std::string> &argv) {
  Run r;
  int fds[2];
  if (pipe(fds) != 0)
    return r;
  const auto start = std::chrono::steady_clock::now();
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
  r.processSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.maxRssKb = usage.ru_maxrss;
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return r;
}

// The number after "key": in a flat JSON object; -1 when absent.
inline double field(const std::string &json, const char *key) {
  std::string k = std::string("\"") + key + "\": ";
  size_t at = json.find(k);
  return at == std::string::npos ? -1 : std::atof(json.c_str() + at + k.size());
}

} // namespace cairn::bench
