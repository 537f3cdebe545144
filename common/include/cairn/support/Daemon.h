// What Cairn's daemons (cairn-solver-pool, cairn-server, cairn-worker) share at start: their
// command lines (`--flag VALUE` or `--flag=VALUE`, bare switches, --help), logging to stderr,
// and the stop signals taken with sigwait.
#pragma once

#include <csignal>
#include <string>
#include <utility>
#include <vector>

namespace cairn {

struct DaemonCommandLine {
  std::string program; // for messages: "cairn-server"
  const char *usage;
  std::vector<std::string> valued;   // flags that take a value
  std::vector<std::string> switches; // flags that do not

  // The flags given, in order, with their values ("" for switches). --help prints the usage and
  // exits 0; anything else unknown is a usage error.
  std::vector<std::pair<std::string, std::string>> parse(int argc, char **argv) const;
  // Prints why and the usage on stderr and exits 2.
  [[noreturn]] void fail(const std::string &why) const;
  // A positive (or, with `allowZero`, non-negative) number, or a usage error naming the flag.
  double number(const std::string &flag, const std::string &value, bool allowZero = false) const;
};

// Logs to stderr through a logger named `name` at `level` (trace, debug, info, warn, error,
// off); false for an unknown level.
bool logToStderr(const std::string &name, const std::string &level);

// Blocks SIGINT and SIGTERM for this thread and every thread it starts from now on, so that
// they are taken by sigwait on the set returned. Call before starting threads.
sigset_t blockStopSignals();

} // namespace cairn
