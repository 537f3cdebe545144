// Replaying a test natively: the program is compiled with clang-15, AddressSanitizer and the
// UndefinedBehaviorSanitizer checks that match the engine's, against the replay library, which
// feeds the test's bytes to klee_make_symbolic and friends; the run's end is then classified in
// the engine's terms (type and kind of error, or a normal exit) and compared with the outcome
// the engine recorded for the test.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cairn::engine {

struct ReplayOutcome {
  bool error = false;
  std::string type, kind; // as the engine names them, when `error`
  int exitCode = 0;       // for a normal exit
  bool diverged = false;  // the run left the test's path, or the test did not fit the program
  bool stopped = false;   // the run reached the place it was to stop at (ReplayBinary::run)
  std::string output;     // everything the run printed (but standardOutput)
  std::string standardOutput; // for a test of the full libc's POSIX model: stdout apart
  std::string describe() const;
};

// What the engine recorded for a test: the error in its .TYPE.err file, or none (the path ended
// normally); a partial path (a .early file: a limit ended it) has no outcome to reproduce.
struct RecordedOutcome {
  std::string type, kind; // empty: no error
  std::string file;       // where the error is
  unsigned line = 0;
  bool partial = false;
  // Under the full libc: the status the path exited with (its .exit file) and what it wrote to
  // stdout (its .stdout file, empty when there is none).
  std::optional<int> exitStatus;
  std::string standardOutput;
  std::string describe() const;
};

RecordedOutcome readRecordedOutcome(const std::string &ktestPath);

// Whether a native run ended as recorded: with the same error type and kind, or normally for a
// test without an error (with the same status and stdout, where the test recorded them). A `model` error is the engine's limit, not the program's behaviour (a
// symbolic floating-point value): the run must get to its place (`stopped`), ending no other way
// first.
bool reproduces(const ReplayOutcome &outcome, const RecordedOutcome &recorded);

struct ReplayOptions {
  std::vector<std::string> extraCFlags;
  std::string entry = "main"; // where the analysis started (cairn run --entry)
  bool checkOverflow = false;  // the analysis ran with --check-overflow
  bool checkOvershift = false; // the analysis ran with --check-overshift
  bool checkLeaks = false;      // the analysis ran with --check-leaks
  bool checkMemcleanup = false; // the analysis ran with --check-memcleanup
  std::string clang = "clang-15";
  std::string runtimeInclude; // empty: this build's
  std::string replayLibrary;  // empty: this build's
  std::string buildCache;     // where native builds are kept for later replays; empty: nowhere
  double timeoutSeconds = 30;
};

// An overflow or a leak error shows the analysis checked for it: the replay must check the same.
void enableChecksOf(ReplayOptions &options, const RecordedOutcome &recorded);

// The program compiled natively for replay, in a directory of its own that goes with it; a
// program built with `cairn cc` runs as it was built.
class ReplayBinary {
public:
  // Throws std::runtime_error when the program cannot be built.
  ReplayBinary(const std::string &program, const ReplayOptions &options);
  ~ReplayBinary();
  ReplayBinary(const ReplayBinary &) = delete;
  ReplayBinary &operator=(const ReplayBinary &) = delete;
  // Runs one test. For a recorded `model` error, the run stops where that error is, when it gets
  // there.
  ReplayOutcome run(const std::string &ktestPath, const RecordedOutcome &recorded = {}) const;
  // The functions the program calls that nothing defines: stubs report a call as the engine does.
  const std::vector<std::string> &externals() const { return externals_; }

private:
  std::string filesDirectory() const;

  std::string dir_, binary_;
  mutable std::string filesDir_; // made at the first POSIX test
  std::vector<std::string> externals_;
  double timeout_;
  bool checkLeaks_, checkMemcleanup_; // checked at the program's end, as the run asks
  bool asBuilt_ = false;             // a `cairn cc` executable, run as it was built
};

// Classifies what a native run printed and how it ended.
ReplayOutcome classifyRun(const std::string &output, int exitCode, int signal);

std::string defaultReplayLibrary();

} // namespace cairn::engine
