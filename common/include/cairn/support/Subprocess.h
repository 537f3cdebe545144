// Running another program (the compiler, a replayed test) and collecting what it printed.
#pragma once

#include <string>
#include <vector>

namespace cairn {

struct ProcessResult {
  bool started = false;  // false: the program could not be run at all (see `output`)
  int exitCode = -1;     // when it exited
  int signal = 0;        // when a signal ended it
  bool timedOut = false; // killed after the time limit
  std::string output;    // standard output and standard error, interleaved
  std::string standardOutput; // standard output alone, with ProcessOptions::separateOutput

  bool succeeded() const { return started && !timedOut && signal == 0 && exitCode == 0; }
  std::string describeEnd() const; // "exited with status 1", "killed by signal 11 (...)", ...
};

// How a program is started beyond its arguments, environment and time limit.
struct ProcessOptions {
  std::string standardInput = "/dev/null"; // a file to read
  std::string workingDirectory;            // empty: this process's
  std::string argv0;                       // empty: argv[0], the program run
  // Standard output goes to ProcessResult::standardOutput instead of `output`, which then holds
  // standard error alone.
  bool separateOutput = false;
  // Run by root, the program runs as nobody: a replayed program that writes files by absolute
  // path must not reach the host's (and meets EACCES there, as the model's user does).
  bool unprivileged = false;
  // The program's address space in bytes (RLIMIT_AS; 0: no limit): a replayed program without
  // AddressSanitizer gets NULL from malloc where the engine's did.
  uint64_t addressSpaceLimit = 0;
};

// Runs argv[0] (searched in PATH) with the given arguments, environment additions ("K=V") and
// time limit (seconds, 0: none). Standard input is /dev/null unless `options` say otherwise.
ProcessResult runProcess(const std::vector<std::string> &argv,
                         const std::vector<std::string> &extraEnv = {},
                         double timeoutSeconds = 0, const ProcessOptions &options = {});

} // namespace cairn
