// Child processes for the integration tests: the solver pool daemon (started on a free loopback
// port, ready when it says where it listens and its health check says SERVING) and one-shot
// commands whose output is collected.
#pragma once

#include "cairn/v1/solver_pool.pb.h"

#include <sys/types.h>
#include <filesystem>

#include <string>
#include <vector>

namespace cairn::testing {

// A daemon: started with its standard output on a pipe, ready once it printed a line starting
// with `readyPrefix` followed by HOST:PORT and the health service there says SERVING.
class Daemon {
public:
  // Waits at most 30 s. Check ready() before use. Without `checkHealth` (a daemon serving
  // TLS), the ready line alone makes it ready.
  Daemon(const std::vector<std::string> &argv, const std::string &readyPrefix = "listening on ",
         bool checkHealth = true);
  ~Daemon(); // kills what is still running
  Daemon(const Daemon &) = delete;
  Daemon &operator=(const Daemon &) = delete;

  bool ready() const { return !endpoint_.empty(); }
  const std::string &endpoint() const { return endpoint_; }
  pid_t pid() const { return pid_; }
  // The next line the daemon prints, waiting at most `seconds`; empty when none comes.
  std::string nextLine(double seconds);

  void signal(int sig);
  // The exit status (as waitpid reports it) once the process ended, or -1 if it still runs
  // after `seconds`.
  int wait(double seconds);
  // Kills with SIGKILL and waits until the process is gone.
  void kill();

private:
  pid_t pid_ = -1;
  int stdout_ = -1;
  std::string endpoint_;
};

// The token file every test's solver pool accepts unless its arguments say otherwise (a file of
// this test process, mode 600), and its token, which the tests' clients send.
const std::string &testPoolTokenFile();
const std::string &testPoolToken();

class PoolProcess : public Daemon {
public:
  // Starts cairn-solver-pool on 127.0.0.1:0 with `args` added, and `--token-file
  // testPoolTokenFile()` unless they give --token-file or --open-clients.
  explicit PoolProcess(std::vector<std::string> args = {});
  v1::StatsResponse stats() const; // asked with testPoolToken()
};

// Polls the standard health service of `endpoint` for `service` until SERVING or `seconds`
// pass; returns the last status seen (grpc.health.v1 ServingStatus), -1 for no answer.
int waitServing(const std::string &endpoint, const std::string &service, double seconds);

// Runs a command to its end; returns its exit status and its standard output.
struct CommandResult {
  int status = -1;
  std::string output;
};
CommandResult runCommand(const std::vector<std::string> &argv);
// A shell command, its standard error with its standard output.
CommandResult shell(const std::string &command);

// A file's whole contents; empty when it cannot be read.
std::string readText(const std::filesystem::path &path);

} // namespace cairn::testing
