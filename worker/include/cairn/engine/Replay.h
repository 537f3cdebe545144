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

// The program compiled natively for replay; removes its binary when destroyed.
class ReplayBinary {
public:
  // Throws std::runtime_error when the program cannot be built.
  ReplayBinary(const std::string &program, const ReplayOptions &options);
  ~ReplayBinary();
  ReplayBinary(const ReplayBinary &) = delete;
  ReplayBinary &operator=(const ReplayBinary &) = delete;
  ReplayOutcome run(const std::string &ktestPath) const;

private:
  std::string binary_;
  double timeout_;
};

// Classifies what a native run printed and how it ended.
ReplayOutcome classifyRun(const std::string &output, int exitCode, int signal);

std::string defaultReplayLibrary();

} // namespace cairn::engine
