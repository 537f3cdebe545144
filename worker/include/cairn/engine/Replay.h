// Replaying a test natively: the program is compiled with clang-15 and AddressSanitizer against
// the replay library, which feeds the test's bytes to klee_make_symbolic and friends; the run's
// end is then classified in the engine's terms (type and kind of error, or a normal exit).
#pragma once

#include <string>
#include <vector>

namespace cairn::engine {

struct ReplayOutcome {
  bool error = false;
  std::string type, kind; // as the engine names them, when `error`
  int exitCode = 0;       // for a normal exit
  bool diverged = false;  // the run left the test's path (klee_assume failed) or the test did not fit
  std::string output;     // everything the run printed
  std::string describe() const;
};

struct ReplayOptions {
  std::vector<std::string> extraCFlags;
  std::string clang = "clang-15";
  std::string runtimeInclude; // empty: this build's
  std::string replayLibrary;  // empty: this build's
  double timeoutSeconds = 30;
};

// Compiles `program` natively (once per call) and runs it on `ktestPath`. Throws
// std::runtime_error when the program cannot be built.
ReplayOutcome replayTest(const std::string &program, const std::string &ktestPath,
                         const ReplayOptions &options);

// Classifies what a native run printed and how it ended.
ReplayOutcome classifyRun(const std::string &output, int exitCode, int signal);

std::string defaultReplayLibrary();

} // namespace cairn::engine
