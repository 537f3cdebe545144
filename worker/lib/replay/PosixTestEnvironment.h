// A test of a run under the full libc recreated for a native run, as KLEE's replay tool does: the
// POSIX model's inputs (runtime/posix/) become real ones. `argNN` objects are appended to the
// recorded arguments, `stdin` is a file the program reads as its standard input, and each
// symbolic file `X-data` is a file named X in a fresh working directory, beside read-only copies
// of the host files the run mapped in (--file, kept in the output directory's `files/`).
#pragma once

#include "cairn/ktest/KTest.h"

#include <string>
#include <vector>

namespace cairn::engine {

// Whether the test comes from a run under the POSIX model (it holds `model_version`).
bool isPosixTest(const KTest &test);

class PosixTestEnvironment {
public:
  // Lays the files out in a new directory under `parent`, with the files of `mappedFiles` (a
  // directory that may not exist); throws std::runtime_error.
  PosixTestEnvironment(const KTest &test, const std::string &parent, const std::string &mappedFiles = "");
  ~PosixTestEnvironment();
  PosixTestEnvironment(const PosixTestEnvironment &) = delete;
  PosixTestEnvironment &operator=(const PosixTestEnvironment &) = delete;

  // argv[1..] as the engine's path saw them.
  const std::vector<std::string> &arguments() const { return arguments_; }
  // argv[0] as the engine gave it: the program's name without its directory and extension.
  const std::string &programName() const { return programName_; }
  const std::string &workingDirectory() const { return dir_; }
  const std::string &standardInput() const { return stdin_; }

private:
  std::vector<std::string> arguments_;
  std::string programName_, dir_, stdin_;
};

} // namespace cairn::engine
